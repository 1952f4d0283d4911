# /// example
# timeout = 120
# ///
# %%
import copy
import tempfile
from pathlib import Path

import torch
from sklearn.datasets import load_digits
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")
if device.type == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
dataset = TensorDataset(torch.tensor(digits.data / 16.0, dtype=torch.float32),
                        torch.tensor(digits.target, dtype=torch.long))
train_set, val_set, test_set = random_split(dataset, [0.7, 0.15, 0.15], generator=torch.Generator().manual_seed(0))
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
val_loader = DataLoader(val_set, batch_size=256)
test_loader = DataLoader(test_set, batch_size=256)

model = nn.Sequential(
    nn.Linear(64, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(256, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(256, 10),
).to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)


def evaluate(model, loader):
    model.eval()
    total, correct, n = 0.0, 0, 0
    with torch.inference_mode():
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            logits = model(xb)
            total += loss_fn(logits, yb).item() * len(yb)
            correct += (logits.argmax(dim=1) == yb).sum().item()
            n += len(yb)
    return total / n, correct / n


# %%
tmp = tempfile.TemporaryDirectory()
best_path = Path(tmp.name) / "best.pt"
history = {"train": [], "val": []}
best_val, best_epoch, patience, bad_epochs = float("inf"), 0, 10, 0

for epoch in range(1, 201):
    model.train()
    total, n = 0.0, 0
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(yb)
        n += len(yb)
    val_loss, val_acc = evaluate(model, val_loader)
    history["train"].append(total / n)
    history["val"].append(val_loss)

    if val_loss < best_val:  # zh: 新的最好结果：把权重存到磁盘上 | en: a new best: keep its weights on disk
        best_val, best_epoch, bad_epochs = val_loss, epoch, 0
        torch.save(model.state_dict(), best_path)
    else:
        bad_epochs += 1
    if epoch % 10 == 0 or bad_epochs == 0 and epoch <= 3:
        print(f"epoch {epoch:3d}  train loss {total / n:.4f}  val loss {val_loss:.4f}  val acc {val_acc:.3f}")
    if bad_epochs == patience:
        print(f"early stop at epoch {epoch}: no better validation loss for {patience} epochs")
        break
print(f"best epoch {best_epoch}: val loss {best_val:.4f}")

# %%
last_val = evaluate(model, val_loader)[0]
last_state = copy.deepcopy(model.state_dict())
model.load_state_dict(torch.load(best_path, map_location=device, weights_only=True))
print(f"val loss, last weights: {last_val:.4f}   best checkpoint reloaded: {evaluate(model, val_loader)[0]:.4f}")

# zh: 测试集只用一次：在最后，用选定的权重
# en: the test set is used once, at the very end, with the chosen weights
test_loss, test_acc = evaluate(model, test_loader)
print(f"test loss {test_loss:.4f}  test accuracy {test_acc:.3f}")
tmp.cleanup()

# %% caption="Training and validation loss with early stopping" caption_zh="使用早停时的训练损失和验证损失"
import matplotlib.pyplot as plt

epochs = range(1, len(history["train"]) + 1)
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(epochs, history["train"], label="train loss (running, dropout on)")
ax.plot(epochs, history["val"], label="validation loss")
ax.axvline(best_epoch, color="gray", linestyle="--", label=f"best epoch ({best_epoch})")
ax.set_yscale("log")
ax.set_xlabel("epoch")
ax.set_ylabel("cross-entropy loss")
ax.grid(alpha=0.3)
ax.legend()
plt.show()
