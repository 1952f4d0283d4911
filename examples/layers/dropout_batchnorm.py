# %%
import torch
from torch import nn

torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(2, 8)

drop.train()  # zh: 模块创建时处于训练模式，这是默认值 | en: modules start in training mode; this is the default
print("train:", drop(x))  # zh: 大约一半被置零，其余乘以 1 / (1 - p) = 2 | en: about half zeroed, the rest scaled by 1 / (1 - p) = 2
drop.eval()
print("eval: ", drop(x))  # zh: 原样输出 | en: identity

# %%
bn = nn.BatchNorm2d(num_features=3)  # zh: 每个通道一个均值和方差 | en: one mean / variance per channel
x = torch.randn(8, 3, 4, 4) * 5 + 10  # zh: (N, C, H, W)，均值远离 0，标准差远离 1 | en: (N, C, H, W), far from mean 0, std 1
y = bn(x).detach()  # zh: 训练模式：用这个批量自己的统计量归一化 | en: training mode: normalise with this batch's statistics
print("input  mean per channel:", x.mean(dim=(0, 2, 3)))
print("output mean per channel:", y.mean(dim=(0, 2, 3)).round(decimals=4) + 0.0)
print("output std  per channel:", y.std(dim=(0, 2, 3), correction=0))

# %%
# zh: 滑动统计量是 buffer，不是参数；momentum 默认为 0.1
# en: the running statistics are buffers, not parameters; momentum=0.1 by default
print("parameters:", [n for n, _ in bn.named_parameters()])
print("buffers:   ", [n for n, _ in bn.named_buffers()])
batch_mean = x.mean(dim=(0, 2, 3))
print("running_mean:", bn.running_mean)
print("0.9 * 0 + 0.1 * batch mean:", 0.1 * batch_mean)

# %%
bn.eval()  # zh: 评估模式：用 running_mean / running_var，不用批量的统计量 | en: evaluation mode: use running_mean / running_var, not the batch
y_eval = bn(x).detach()
by_hand = (x - bn.running_mean[None, :, None, None]) / torch.sqrt(bn.running_var[None, :, None, None] + bn.eps)
print("eval output mean per channel:", y_eval.mean(dim=(0, 2, 3)))
print("matches running-stat formula:", torch.allclose(y_eval, by_hand, atol=1e-5))
