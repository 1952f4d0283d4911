# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
bn = nn.BatchNorm2d(4).to(device)
x = torch.randn(8, 4, 5, 5, device=device) * 2 + 3  # zh: (N, C, H, W) | en: (N, C, H, W)

# zh: 每个通道一个均值、一个方差，在 N、H、W 三个维度上统计：每个统计量用到 8 * 5 * 5 = 200 个数
# en: One mean and one variance per channel, over N, H and W: 8 * 5 * 5 = 200 values per statistic.
mean = x.mean(dim=(0, 2, 3))
var = x.var(dim=(0, 2, 3), correction=0)  # zh: 归一化用有偏方差 | en: normalising uses the biased variance
y = bn(x)
by_hand = (x - mean[None, :, None, None]) / torch.sqrt(var[None, :, None, None] + bn.eps)
print("statistics:", tuple(mean.shape), " values per statistic:", x.numel() // x.shape[1])
print(f"train-mode output vs by hand, max difference: {(y - by_hand).abs().max().item():.1e}")

# zh: 滑动方差却用无偏方差（除以 n - 1）更新
# en: The running variance, though, is updated with the unbiased variance (divided by n - 1).
unbiased = x.var(dim=(0, 2, 3), correction=1)
print("running_var == 0.9 * 1 + 0.1 * unbiased var:", torch.allclose(bn.running_var, 0.9 + 0.1 * unbiased))
print("running_var == 0.9 * 1 + 0.1 * biased var:  ", torch.allclose(bn.running_var, 0.9 + 0.1 * var))

# %%
# zh: 训练模式下，一个样本的输出取决于同一批里的其他样本；评估模式下不会
# en: In training mode a sample's output depends on the other samples in its batch; in evaluation mode it does not.
other = torch.randn(7, 4, 5, 5, device=device) * 2 + 3
batch_a = torch.cat([x[:1], x[1:]])
batch_b = torch.cat([x[:1], other])
for mode in ("train", "eval"):
    bn.train(mode == "train")
    diff = (bn(batch_a)[0] - bn(batch_b)[0]).abs().max().item()
    print(f"{mode:5s} mode: sample 0's output changes by {diff:.4f} when its batch-mates change")

# %%
# zh: 多训练几步，滑动统计量就收敛到数据的均值和方差（这里是 3 和 4）
# en: After enough training steps the running statistics converge to the data's mean and variance (3 and 4 here).
bn = nn.BatchNorm2d(4).to(device)
for step in range(1, 101):
    bn(torch.randn(16, 4, 5, 5, device=device) * 2 + 3)
    if step in (1, 10, 100):
        print(f"after {step:3d} batches: running_mean {bn.running_mean.mean().item():.3f}, "
              f"running_var {bn.running_var.mean().item():.3f}  (averaged over channels)")

# %%
# zh: 评估模式的 BN 只是每个通道一个乘法加一个加法：y = a * x + b
# en: In evaluation mode BN is just a multiply and an add per channel: y = a * x + b.
bn.eval()
nn.init.uniform_(bn.weight, 0.5, 1.5)  # zh: 假装 gamma、beta 已经学过 | en: pretend gamma and beta were learned
nn.init.uniform_(bn.bias, -0.5, 0.5)
a = bn.weight / torch.sqrt(bn.running_var + bn.eps)
b = bn.bias - bn.running_mean * a
with torch.no_grad():
    diff = (bn(x) - (a[None, :, None, None] * x + b[None, :, None, None])).abs().max().item()
print(f"eval-mode BN vs a * x + b, max difference: {diff:.1e}")
