# %%
import torch
from torch import nn

torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(2, 8)

drop.train()  # modules start in training mode; this is the default
print("train:", drop(x))  # about half zeroed, the rest scaled by 1 / (1 - p) = 2
drop.eval()
print("eval: ", drop(x))  # identity

# %%
bn = nn.BatchNorm2d(num_features=3)  # one mean / variance per channel
x = torch.randn(8, 3, 4, 4) * 5 + 10  # (N, C, H, W), far from mean 0, std 1
y = bn(x).detach()  # training mode: normalise with this batch's statistics
print("input  mean per channel:", x.mean(dim=(0, 2, 3)))
print("output mean per channel:", y.mean(dim=(0, 2, 3)).round(decimals=4) + 0.0)
print("output std  per channel:", y.std(dim=(0, 2, 3), unbiased=False))

# %%
# the running statistics are buffers, not parameters; momentum=0.1 by default
print("parameters:", [n for n, _ in bn.named_parameters()])
print("buffers:   ", [n for n, _ in bn.named_buffers()])
batch_mean = x.mean(dim=(0, 2, 3))
print("running_mean:", bn.running_mean)
print("0.9 * 0 + 0.1 * batch mean:", 0.1 * batch_mean)

# %%
bn.eval()  # evaluation mode: use running_mean / running_var, not the batch
y_eval = bn(x).detach()
by_hand = (x - bn.running_mean[None, :, None, None]) / torch.sqrt(bn.running_var[None, :, None, None] + bn.eps)
print("eval output mean per channel:", y_eval.mean(dim=(0, 2, 3)))
print("matches running-stat formula:", torch.allclose(y_eval, by_hand, atol=1e-5))
