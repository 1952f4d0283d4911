# %%
import torch
from torch import nn


def conv_out(size, kernel, stride=1, padding=0, dilation=1):
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


h = 64
h = conv_out(h, 5, stride=2, padding=2)  # zh: Conv2d(3, 16, 5, stride=2, padding=2) 之后 | en: Conv2d(3, 16, 5, stride=2, padding=2)
h = conv_out(h, 2, stride=2)  # zh: MaxPool2d(2) 之后 | en: MaxPool2d(2)
h = conv_out(h, 3)  # zh: Conv2d(16, 32, 3) 之后 | en: Conv2d(16, 32, 3)
h = conv_out(h, 2, stride=2)  # zh: MaxPool2d(2) 之后 | en: MaxPool2d(2)
in_features = 32 * h * h
print("H = W =", h, " in_features =", in_features)

# %%
torch.manual_seed(0)
features = nn.Sequential(
    nn.Conv2d(3, 16, 5, stride=2, padding=2), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(),
)
out = features(torch.zeros(1, 3, 64, 64))
print("real output:", tuple(out.shape), " match:", out.shape[1] == in_features)
model = nn.Sequential(features, nn.Linear(in_features, 10))
print("logits:", tuple(model(torch.zeros(4, 3, 64, 64)).shape))
