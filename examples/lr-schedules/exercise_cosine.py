# %%
import math

import matplotlib.pyplot as plt
import torch
from torch.optim import lr_scheduler

torch.manual_seed(0)
LR0, ETA_MIN, T_MAX, EPOCHS = 0.1, 0.01, 10, 30

optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=LR0)
scheduler = lr_scheduler.CosineAnnealingLR(optimizer, T_max=T_MAX, eta_min=ETA_MIN)
got = []
for _ in range(EPOCHS):
    got.append(optimizer.param_groups[0]["lr"])
    optimizer.step()
    scheduler.step()

# zh: 文档里的公式：eta_min + (lr0 - eta_min) * (1 + cos(pi * t / T_max)) / 2
# en: The documented formula: eta_min + (lr0 - eta_min) * (1 + cos(pi * t / T_max)) / 2.
want = [ETA_MIN + (LR0 - ETA_MIN) * (1 + math.cos(math.pi * t / T_MAX)) / 2 for t in range(EPOCHS)]
torch.testing.assert_close(torch.tensor(got, dtype=torch.float64), torch.tensor(want, dtype=torch.float64))
print("matches the formula for epochs 0-29, also past T_max")
print("epoch 10 (= T_max):", round(got[10], 6), " epoch 20 (= 2 T_max):", round(got[20], 6))

# %% caption_zh="CosineAnnealingLR(T_max=10, eta_min=0.01) 的学习率和它的公式"
plt.figure(figsize=(6, 3.2))
plt.plot(range(EPOCHS), got, "o", ms=4, label="CosineAnnealingLR")
t = torch.linspace(0, EPOCHS - 1, 300)
plt.plot(t, ETA_MIN + (LR0 - ETA_MIN) * (1 + torch.cos(math.pi * t / T_MAX)) / 2, lw=1, label="formula")
plt.axvline(T_MAX, color="gray", ls="--", lw=0.8)
plt.xlabel("epoch")
plt.ylabel("learning rate")
plt.title("CosineAnnealingLR(T_max=10, eta_min=0.01) against its formula")
plt.legend(fontsize=8)
plt.grid(alpha=0.3)
plt.tight_layout()
plt.show()
