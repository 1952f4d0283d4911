# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

print("type:", type(optimizer.param_groups).__name__, " len:", len(optimizer.param_groups))
group = optimizer.param_groups[0]
print("keys:", list(group.keys()))
print("lr:", group["lr"], " momentum:", group["momentum"], " tensors:", len(group["params"]))

# %%
for g in optimizer.param_groups:  # zh: 手动改学习率 | en: change the learning rate by hand
    g["lr"] = 0.01
print("new lr:", optimizer.param_groups[0]["lr"])

# %%
# zh: 模型每部分一个组，各有自己的 lr
# en: One group per part of the model, each with its own lr.
optimizer = torch.optim.SGD(
    [
        {"params": model[0].parameters(), "lr": 1e-3},
        {"params": model[2].parameters()},  # zh: 沿用默认的 lr | en: falls back to the default lr
    ],
    lr=0.1,
)
for i, g in enumerate(optimizer.param_groups):
    print(f"group {i}: lr={g['lr']} shapes={[tuple(p.shape) for p in g['params']]}")

# %% raises="TypeError"
optimizer.param_groups()  # zh: 笔记里的写法 | en: as written in the notes
