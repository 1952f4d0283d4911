# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3),  # zh: 8 个 1×3×3 的卷积核，加 8 个偏置 | en: 8 kernels of 1x3x3, plus 8 biases
    nn.ReLU(),
    nn.Flatten(),
    nn.Linear(8 * 26 * 26, 10),  # zh: 28×28 的输入经 3×3 卷积后是 26×26 | en: a 3x3 conv turns 28x28 into 26x26
)

# zh: 按公式手算：卷积 out*in*k*k + out，全连接 out*in + out
# en: By the formula: conv out*in*k*k + out, linear out*in + out.
by_hand = (8 * 1 * 3 * 3 + 8) + (10 * 8 * 26 * 26 + 10)
by_torch = sum(p.numel() for p in model.parameters())
print("by hand: ", by_hand)
print("by torch:", by_torch)
assert by_hand == by_torch

# %%
# zh: 冻结卷积层后，可训练的只剩全连接层
# en: After freezing the conv layer, only the linear layer trains.
for p in model[0].parameters():
    p.requires_grad = False
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("trainable:", trainable, " frozen:", by_torch - trainable)
assert trainable == 10 * 8 * 26 * 26 + 10

# zh: 顺便确认 28×28 的假设：前向一次
# en: Check the 28x28 assumption with one forward pass.
print("output shape:", model(torch.rand(2, 1, 28, 28)).shape)
