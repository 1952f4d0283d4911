# %%
import torch
from torch import nn

torch.manual_seed(0)


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
        return self.linear_relu_stack(self.flatten(x))


model = NeuralNetwork()
for name, p in model.named_parameters():
    print(f"{name:26s} {str(tuple(p.shape)):11s} requires_grad={p.requires_grad}")

n_params = sum(p.numel() for p in model.parameters())
print("total parameters:", n_params)

# %%
layer = model.linear_relu_stack[0]  # zh: 第一个 nn.Linear | en: the first nn.Linear
print("layer:", layer)
print("type(layer.weight):", type(layer.weight).__name__)
print("layer.weight.shape:", layer.weight.shape)  # zh: (out_features, in_features) | en: (out_features, in_features)
print("layer.bias.shape:", layer.bias.shape)

# %%
net = nn.Conv2d(3, 16, kernel_size=3)  # zh: kernel_size 是必填参数 | en: kernel_size is required
for param in net.parameters():
    param.requires_grad = False
print("conv trainable:", sum(p.numel() for p in net.parameters() if p.requires_grad))

# zh: 冻结 MLP 的第一个 Linear，再做一次反向传播
# en: Freeze the first Linear of the MLP, then run a backward pass.
for param in layer.parameters():
    param.requires_grad = False
loss = model(torch.rand(2, 28, 28)).sum()
loss.backward()
for name, p in model.named_parameters():
    print(f"{name:26s} grad is None: {p.grad is None}")

# %%
# zh: 只把仍需训练的参数交给优化器
# en: Give the optimizer only the parameters that still train.
trainable = [p for p in model.parameters() if p.requires_grad]
optimizer = torch.optim.SGD(trainable, lr=0.1)
print("trainable parameters:", sum(p.numel() for p in trainable))

# %% raises="TypeError"
net = torch.nn.Conv2d(3, 16)  # zh: 笔记里的写法 | en: as written in the notes
