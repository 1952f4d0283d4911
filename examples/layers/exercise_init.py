# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight, gain=nn.init.calculate_gain("tanh"))
        nn.init.constant_(m.bias, 0.01)


model.apply(init_weights)
for name, m in model.named_modules():
    if isinstance(m, nn.Linear):
        fan_in, fan_out = m.in_features, m.out_features
        a = nn.init.calculate_gain("tanh") * (6 / (fan_in + fan_out)) ** 0.5
        print(f"{name}: max |w| {m.weight.abs().max().item():.4f} <= {a:.4f}: {bool(m.weight.abs().max() <= a)}"
              f"  bias all 0.01: {bool((m.bias == 0.01).all())}")
