# %%
import torch
from torch import nn

torch.manual_seed(0)
features = nn.Sequential(
    nn.Conv2d(1, 16, kernel_size=5), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, kernel_size=5), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(),
)
# %% raises="RuntimeError"
# zh: 练习里猜的 256 个输入
# en: the guess in the exercise: 256 inputs
model = nn.Sequential(features, nn.Linear(256, 10))
model(torch.zeros(2, 1, 28, 28))

# %%
# zh: 送入一张假图像，从结果读出大小
# en: feed one dummy image and read the size off the result
n = features(torch.zeros(1, 1, 28, 28)).shape[1]
print("flattened features:", n, "=", 32, "x", 4, "x", 4)

model = nn.Sequential(features, nn.Linear(n, 10))
print("output:", tuple(model(torch.zeros(2, 1, 28, 28)).shape))

# %%
# zh: 或者让层在第一次调用时自己推断
# en: or let the layer find out on the first call
lazy = nn.Sequential(features, nn.LazyLinear(10))
lazy(torch.zeros(2, 1, 28, 28))
print(lazy[1])
