# %%
import torch
from torch import nn


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.25), nn.Linear(8 * 14 * 14, 10))

    def forward(self, x):
        return self.classifier(self.features(x))


torch.manual_seed(0)
model = SmallCNN()
print(model)

# %%
# every submodule, recursively, with its dotted name ("" is the model itself)
for name, module in model.named_modules():
    print(f"{name or '(root)':14s} {type(module).__name__}")

# %%
# shapes between layers: feed a dummy batch through, one child at a time
x = torch.zeros(2, 1, 28, 28)
for layer in [*model.features, *model.classifier]:
    x = layer(x)
    print(f"{type(layer).__name__:12s} -> {tuple(x.shape)}")

# %%
from torchinfo import summary

# torchinfo runs a forward pass and reports each layer's output shape and parameter count
print(summary(model, input_size=(2, 1, 28, 28), col_names=("output_size", "num_params"), verbose=0))
