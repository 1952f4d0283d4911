# %%
import tempfile
from pathlib import Path

import torch
from torch import nn

x, y = torch.randn(64, 5, generator=torch.Generator().manual_seed(1)), torch.randn(64, 1, generator=torch.Generator().manual_seed(2))


def make():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
    return model, torch.optim.Adam(model.parameters(), lr=1e-2)


def train(model, optimizer, steps):
    for _ in range(steps):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        optimizer.step()


# zh: 一口气训练 10 步
# en: 10 steps in one go
model, optimizer = make()
train(model, optimizer, 10)
reference = model(x)

# zh: 训练 5 步，存检查点，“新进程”加载它，再训练 5 步
# en: 5 steps, checkpoint, a "new process" that reloads it, 5 more steps
model, optimizer = make()
train(model, optimizer, 5)
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "ckpt.pt"
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": 5}, path)
    model, optimizer = make()
    ckpt = torch.load(path, weights_only=True)
    model.load_state_dict(ckpt["model"])
    optimizer.load_state_dict(ckpt["optimizer"])
train(model, optimizer, 10 - ckpt["step"])
print("resumed == uninterrupted:", torch.equal(model(x), reference))

# %%
# zh: 只加载模型、不加载优化器，Adam 的矩估计和步数就从头开始
# en: reloading the model but not the optimizer restarts Adam's moments and step count
model, optimizer = make()
train(model, optimizer, 5)
state = {k: v.clone() for k, v in model.state_dict().items()}
model, optimizer = make()
model.load_state_dict(state)
train(model, optimizer, 5)
print("model only:", torch.equal(model(x), reference),
      f" max |diff| = {(model(x) - reference).abs().max().item():.4f}")
