# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")

# zh: nn.Linear 作用在最后一维，前面的维度都保留
# en: nn.Linear acts on the last dimension; every leading dimension is kept
linear = nn.Linear(in_features=20, out_features=5).to(device)
x = torch.randn(4, 7, 20, device=device)
print("Linear:", tuple(x.shape), "->", tuple(linear(x).shape))
print("weight:", tuple(linear.weight.shape), " bias:", tuple(linear.bias.shape))


# %%
def conv_out(size, kernel, stride=1, padding=0, dilation=1):
    """Output length of Conv2d / MaxPool2d along one spatial dimension."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


x = torch.randn(2, 3, 32, 32, device=device)  # zh: (N, C, H, W)：批量、通道、高、宽 | en: (N, C, H, W)
for kwargs in [dict(kernel_size=3), dict(kernel_size=3, padding=1), dict(kernel_size=5, stride=2),
               dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=3, dilation=2)]:
    conv = nn.Conv2d(3, 16, **kwargs).to(device)
    out = conv(x)
    k = kwargs["kernel_size"]
    s, p, d = kwargs.get("stride", 1), kwargs.get("padding", 0), kwargs.get("dilation", 1)
    expected = conv_out(32, k, s, p, d)
    print(f"Conv2d{kwargs}: {tuple(out.shape)}  formula H_out={expected}  match={out.shape[-1] == expected}")

# %%
# zh: MaxPool2d 用同一个公式，stride 默认等于 kernel_size
# en: MaxPool2d uses the same formula; its stride defaults to kernel_size
pool = nn.MaxPool2d(kernel_size=2)
y = pool(torch.randn(2, 16, 15, 15, device=device))
print("MaxPool2d(2):", tuple(y.shape), " formula:", conv_out(15, 2, stride=2))

t = torch.arange(16.0, device=device).reshape(1, 1, 4, 4)
print(t[0, 0])
print(pool(t)[0, 0])  # zh: 每个 2x2 窗口里的最大值 | en: the largest value of each 2x2 window
