# /// example
# timeout = 180
# ///
# %%
import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(256, 10)
y = torch.sin(x[:, :1] * 2) + 0.5 * x[:, 1:2]  # zh: 一个光滑的非线性目标函数 | en: a smooth nonlinear target
init = nn.Sequential(nn.Linear(10, 64), nn.Tanh(), nn.Linear(64, 1))

histories = {}
settings = {
    "SGD lr=0.05": lambda ps: torch.optim.SGD(ps, lr=0.05),
    "SGD lr=0.05, momentum=0.9": lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9),
    "Adam lr=0.01": lambda ps: torch.optim.Adam(ps, lr=0.01),
    "AdamW lr=0.01, wd=0.01": lambda ps: torch.optim.AdamW(ps, lr=0.01, weight_decay=0.01),
}
for name, make in settings.items():
    model = nn.Sequential(nn.Linear(10, 64), nn.Tanh(), nn.Linear(64, 1))
    model.load_state_dict(init.state_dict())  # zh: 每个优化器从同一个起点出发 | en: the same starting point for every optimizer
    optimizer = make(model.parameters())
    losses = []
    for _ in range(300):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    histories[name] = losses
    print(f"{name:26s} loss after 300 steps: {losses[-1]:.4f}")

# %% caption="Training loss of SGD, momentum, Adam and AdamW" caption_zh="SGD、动量法、Adam 和 AdamW 的训练损失"
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 3.5))
for name, losses in histories.items():
    ax.plot(losses, label=name)
ax.set_yscale("log")
ax.set_xlabel("step")
ax.set_ylabel("training loss (MSE)")
ax.grid(alpha=0.3)
ax.legend()
plt.show()
