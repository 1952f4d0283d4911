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
# zh: 递归列出每个子模块和它带点的名字（"" 是模型本身）
# en: every submodule, recursively, with its dotted name ("" is the model itself)
for name, module in model.named_modules():
    print(f"{name or '(root)':14s} {type(module).__name__}")

# %%
# zh: 层与层之间的形状：让一个假批量逐个经过子模块
# en: shapes between layers: feed a dummy batch through, one child at a time
x = torch.zeros(2, 1, 28, 28)
for layer in [*model.features, *model.classifier]:
    x = layer(x)
    print(f"{type(layer).__name__:12s} -> {tuple(x.shape)}")

# %%
from torchinfo import summary

# zh: torchinfo 跑一次前向传播，报告每层的输出形状和参数量
# en: torchinfo runs a forward pass and reports each layer's output shape and parameter count
stats = summary(model, input_size=(2, 1, 28, 28), col_names=("output_size", "num_params"), verbose=0)
print(stats)
# zh: “Units.MEGABYTES” 是 torchinfo 在 Python 3.11+ 上的格式错误，本该印成 M（百万次）；精确的次数：
# en: "Units.MEGABYTES" is a torchinfo formatting bug on Python 3.11+, meant to print M (millions); the exact count:
print(f"total mult-adds: {stats.total_mult_adds:,}")
