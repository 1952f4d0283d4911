# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def conv_bn(in_ch, out_ch, k):
    return nn.Sequential(nn.Conv2d(in_ch, out_ch, k, padding=k // 2, bias=False), nn.BatchNorm2d(out_ch))


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.f = nn.Sequential(conv_bn(c, c, 3), nn.ReLU(), conv_bn(c, c, 3))

    def forward(self, x):
        return torch.relu(self.f(x) + x)


class Bottleneck(nn.Module):
    # zh: 1x1 把通道压到 c/4，3x3 在窄的表示上做，1x1 再扩回 c
    # en: A 1x1 squeezes to c/4 channels, the 3x3 works on the narrow representation, a 1x1 expands back to c.
    def __init__(self, c, expansion=4):
        super().__init__()
        mid = c // expansion
        self.f = nn.Sequential(conv_bn(c, mid, 1), nn.ReLU(), conv_bn(mid, mid, 3), nn.ReLU(), conv_bn(mid, c, 1))

    def forward(self, x):
        return torch.relu(self.f(x) + x)


def macs(block, x):
    # zh: 每个卷积的乘加次数 = 输出元素数 * 每个输出用到的输入数
    # en: Multiply-adds of each conv = output elements * inputs per output.
    total = 0

    def hook(m, inp, out):
        nonlocal total
        total += out.numel() * m.in_channels * m.kernel_size[0] * m.kernel_size[1] // out.shape[0]

    handles = [m.register_forward_hook(hook) for m in block.modules() if isinstance(m, nn.Conv2d)]
    block(x)
    for h in handles:
        h.remove()
    return total


# zh: 64 通道的 BasicBlock（ResNet-34 的做法）和 256 通道的两种块，14x14 的特征图
# en: A 64-channel BasicBlock (as in ResNet-34) and both blocks at 256 channels, on 14x14 feature maps.
results = {}
for name, c, block in [("basic, 64 channels", 64, BasicBlock(64)), ("basic, 256 channels", 256, BasicBlock(256)),
                       ("bottleneck, 256 channels", 256, Bottleneck(256))]:
    block = block.to(device)
    x = torch.randn(2, c, 14, 14, device=device)
    params = sum(p.numel() for p in block.parameters())
    results[name] = macs(block, x)
    print(f"{name:24s} output {tuple(block(x).shape)}  parameters {params:8d}  multiply-adds per image {results[name]:10d}")
print(f"basic / bottleneck at 256 channels: {results['basic, 256 channels'] / results['bottleneck, 256 channels']:.1f}x the multiply-adds")
