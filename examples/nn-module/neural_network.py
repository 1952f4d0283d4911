# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28 * 28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)

# %%
x = torch.rand(3, 28, 28, device=device)  # zh: 一批 3 张假的 28x28 图像 | en: a batch of 3 fake 28x28 images
logits = model(x)  # zh: 调用模块本身，不要写 model.forward(x) | en: call the module, not model.forward(x)
print("x.shape:", x.shape)
print("flattened:", model.flatten(x).shape)
print("logits.shape:", logits.shape)

# %%
probs = logits.softmax(dim=1)
print("row sums:", probs.sum(dim=1))
print("predicted classes:", probs.argmax(dim=1))
