# %%
from torch import nn

conv = nn.Conv2d(3, 16, kernel_size=3)
bn = nn.BatchNorm2d(16)
linear = nn.Linear(16 * 30 * 30, 10)

# zh: 按公式：权重 C_out x C_in x k x k，再加每个输出通道一个偏置
# en: by formula: weight C_out x C_in x k x k plus one bias per output channel
print("Conv2d:   ", 16 * 3 * 3 * 3 + 16, sum(p.numel() for p in conv.parameters()))
# zh: BatchNorm：每个通道一个缩放（weight）和一个平移（bias）；滑动统计量是 buffer
# en: BatchNorm: a scale (weight) and a shift (bias) per channel; running stats are buffers
print("BatchNorm:", 2 * 16, sum(p.numel() for p in bn.parameters()))
print("Linear:   ", 16 * 30 * 30 * 10 + 10, sum(p.numel() for p in linear.parameters()))
