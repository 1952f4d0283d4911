# %%
import os
import tempfile

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(64, 3)
ds = TensorDataset(X, X @ torch.tensor([[1.0], [-1.0], [2.0]]) + 0.1 * torch.randn(64, 1))
EPOCHS, STOP = 8, 3
path = os.path.join(tempfile.mkdtemp(), "checkpoint.pt")


def setup():
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    g = torch.Generator().manual_seed(2)  # zh: 决定数据的打乱顺序 | en: decides the shuffling order
    loader = DataLoader(ds, batch_size=16, shuffle=True, generator=g)
    return model, optimizer, scheduler, g, loader


def train(start, stop, model, optimizer, scheduler, g, loader, save_at=None):
    log = []
    for epoch in range(start, stop):
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb), yb)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        log.append((epoch, round(loss.item(), 6), scheduler.get_last_lr()[0]))
        scheduler.step()
        if epoch == save_at:
            torch.save(
                {
                    "epoch": epoch,
                    "model": model.state_dict(),
                    "optimizer": optimizer.state_dict(),
                    "scheduler": scheduler.state_dict(),
                    # zh: 下一个轮次的打乱顺序取决于它
                    # en: The next epoch's order depends on it.
                    "generator": g.get_state(),
                },
                path,
            )
    return log


model, *rest = setup()
reference = train(0, EPOCHS, model, *rest, save_at=STOP - 1)
reference_weights = [p.detach().clone() for p in model.parameters()]
for row in reference:
    print("uninterrupted", row)

# %%
# zh: 新的对象，从检查点恢复全部状态，跑完剩下的轮次
# en: Fresh objects, every state restored from the checkpoint, then the remaining epochs.
model, optimizer, scheduler, g, loader = setup()
ckpt = torch.load(path, weights_only=True)
model.load_state_dict(ckpt["model"])
optimizer.load_state_dict(ckpt["optimizer"])
scheduler.load_state_dict(ckpt["scheduler"])
g.set_state(ckpt["generator"])
resumed = train(ckpt["epoch"] + 1, EPOCHS, model, optimizer, scheduler, g, loader)
for row in resumed:
    print("resumed      ", row)

assert resumed == reference[STOP:]
assert all(torch.equal(a, b) for a, b in zip(model.parameters(), reference_weights, strict=True))
print("losses, learning rates and final weights are identical")
