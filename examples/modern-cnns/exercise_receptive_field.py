# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def receptive_field(net, size=33):
    # zh: 中心那个输出像素对输入求梯度：梯度不为 0 的区域就是它的感受野
    # en: Differentiate the centre output pixel w.r.t. the input: the region with a non-zero gradient is its receptive field.
    x = torch.randn(1, 1, size, size, device=device, requires_grad=True)
    out = net(x)
    out[0, 0, out.shape[2] // 2, out.shape[3] // 2].backward()
    rows, cols = torch.nonzero(x.grad[0, 0], as_tuple=True)
    return (rows.max() - rows.min() + 1).item(), (cols.max() - cols.min() + 1).item()


def stack(n, k=3, stride=1, c=1):
    return nn.Sequential(*[nn.Conv2d(c, c, k, stride=stride, padding=k // 2) for _ in range(n)]).to(device)


for n in (1, 2, 3, 5):
    print(f"{n} conv 3x3 layers: receptive field {receptive_field(stack(n))}")
print(f"1 conv 5x5 layer:  receptive field {receptive_field(stack(1, k=5))}")
print(f"2 conv 3x3, stride 2: receptive field {receptive_field(stack(2, stride=2))}")

# %%
# zh: 同样的感受野，两层 3x3 的参数比一层 5x5 少，中间还多一个非线性
# en: For the same receptive field, two 3x3 layers have fewer parameters than one 5x5, plus a non-linearity in between.
c = 64
two_3x3 = sum(p.numel() for p in stack(2, c=c).parameters() if p.dim() == 4)
one_5x5 = sum(p.numel() for p in stack(1, k=5, c=c).parameters() if p.dim() == 4)
print(f"weights with {c} channels: two 3x3 {two_3x3}, one 5x5 {one_5x5}, ratio {two_3x3 / one_5x5:.2f}")
