# %%
import math

import torch
from torch import nn

torch.manual_seed(0)
# zh: nn.Linear 的默认初始化：weight 和 bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))
# en: default init of nn.Linear: weight and bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))
layer = nn.Linear(400, 100)
bound = 1 / math.sqrt(400)
print(f"bound 1/sqrt(fan_in) = {bound:.4f}")
print(f"weight min {layer.weight.min().item():.4f}  max {layer.weight.max().item():.4f}")
print(f"bias   min {layer.bias.min().item():.4f}  max {layer.bias.max().item():.4f}")

# %%
# zh: nn.init 的函数以 _ 结尾：就地填充张量，不记录进计算图
# en: nn.init functions end in _ : they fill a tensor in place, without recording autograd
w = torch.empty(100, 400)
nn.init.kaiming_normal_(w, nonlinearity="relu")  # zh: 标准差 = sqrt(2 / fan_in) | en: std = sqrt(2 / fan_in)
print(f"kaiming_normal_: std {w.std().item():.4f}  formula {math.sqrt(2 / 400):.4f}")
nn.init.xavier_uniform_(w)  # zh: U(-a, a)，其中 a = sqrt(6 / (fan_in + fan_out)) | en: U(-a, a), a = sqrt(6 / (fan_in + fan_out))
print(f"xavier_uniform_: max |w| {w.abs().max().item():.4f}  a {math.sqrt(6 / 500):.4f}")
nn.init.zeros_(w)
print("zeros_:", w.abs().sum().item())
nn.init.constant_(w, 0.5)
print("constant_:", w.unique())


# %%
def init_weights(m):
    if isinstance(m, (nn.Linear, nn.Conv2d)):
        nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        nn.init.zeros_(m.bias)


model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 6 * 6, 10))
model.apply(init_weights)  # zh: 对每个子模块调用 init_weights，最后是模型本身 | en: calls init_weights on every submodule, then on the model itself
for name, p in model.named_parameters():
    print(f"{name:9s} {str(tuple(p.shape)):14s} std {p.std().item():.4f}  requires_grad={p.requires_grad}")

# %%
# zh: 为什么重要：激活值经过 20 层 Linear+ReLU 后的大小
# en: why it matters: the scale of activations through 20 Linear+ReLU layers
x = torch.randn(512, 256)
for name, init in [("std 0.01", lambda w: nn.init.normal_(w, std=0.01)),
                   ("kaiming", lambda w: nn.init.kaiming_normal_(w, nonlinearity="relu"))]:
    h = x
    for _ in range(20):
        lin = nn.Linear(256, 256, bias=False)
        init(lin.weight)
        h = torch.relu(lin(h))
    print(f"{name:8s}: std of the activations after 20 layers = {h.std().item():.3g}")
