# /// example
# timeout = 120
# ///
# %%
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)
y = torch.tensor(digits.target, dtype=torch.long)
X_rest, X_test, y_rest, y_test = train_test_split(X, y, test_size=0.15, random_state=0, stratify=y)
X_train, X_val, y_train, y_val = train_test_split(
    X_rest, y_rest, test_size=len(y_test), random_state=0, stratify=y_rest)
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True,
                          generator=torch.Generator().manual_seed(0))  # zh: 打乱顺序可以复现 | en: reproducible shuffling
val_loader = DataLoader(TensorDataset(X_val, y_val), batch_size=256)
test_loader = DataLoader(TensorDataset(X_test, y_test), batch_size=256)

model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),   # zh: 输出 8 x 8 x 8 | en: 8 x 8 x 8
    nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),  # zh: 输出 16 x 8 x 8 | en: 16 x 8 x 8
    nn.MaxPool2d(2),                                        # zh: 输出 16 x 4 x 4 | en: 16 x 4 x 4
    nn.Flatten(),
    nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
    nn.Linear(64, 10),
).to(device)
print("device:", device)
print("parameters:", sum(p.numel() for p in model.parameters()))


# %%
def evaluate(model, loader):
    model.eval()
    total_loss, correct, n = 0.0, 0, 0
    with torch.no_grad():
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            logits = model(xb)
            total_loss += nn.functional.cross_entropy(logits, yb, reduction="sum").item()
            correct += (logits.argmax(dim=1) == yb).sum().item()
            n += len(yb)
    return total_loss / n, correct / n


loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
history = {"train_loss": [], "val_loss": [], "train_acc": [], "val_acc": []}
epochs = 20
for epoch in range(1, epochs + 1):
    model.train()
    total_loss, correct, n = 0.0, 0, 0
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        logits = model(xb)
        loss = loss_fn(logits, yb)
        loss.backward()
        optimizer.step()
        # zh: 整个轮次的累计平均（权重一直在变）
        # en: Running averages over the epoch (the weights change as we go).
        total_loss += loss.item() * len(yb)
        correct += (logits.argmax(dim=1) == yb).sum().item()
        n += len(yb)
    history["train_loss"].append(total_loss / n)
    history["train_acc"].append(correct / n)
    # zh: 每个轮次只在验证集上评估，测试集留到最后
    # en: Every epoch is evaluated on the validation set only; the test set waits until the end.
    val_loss, val_acc = evaluate(model, val_loader)
    history["val_loss"].append(val_loss)
    history["val_acc"].append(val_acc)
    if epoch % 5 == 0 or epoch == 1:
        print(f"epoch {epoch:2d}  train loss {total_loss / n:.4f}  train acc {correct / n:.3f}  "
              f"val loss {val_loss:.4f}  val acc {val_acc:.3f}")
best = min(range(epochs), key=lambda i: history["val_loss"][i])
print(f"lowest validation loss at epoch {best + 1}: {history['val_loss'][best]:.4f}")

# %% caption="Training and validation loss per epoch" caption_zh="每个 epoch 的训练损失和验证损失"
import matplotlib.pyplot as plt

ep = range(1, epochs + 1)
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(ep, history["train_loss"], label="train")
ax.plot(ep, history["val_loss"], label="validation")
ax.set_xlabel("epoch")
ax.set_ylabel("cross-entropy loss")
ax.set_yscale("log")
ax.legend()
fig.tight_layout()
plt.show()

# %% caption="Training and validation accuracy per epoch" caption_zh="每个 epoch 的训练准确率和验证准确率"
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(ep, history["train_acc"], label="train")
ax.plot(ep, history["val_acc"], label="validation")
ax.set_xlabel("epoch")
ax.set_ylabel("accuracy")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# zh: 所有决定都做完了：在测试集上评估，只此一次
# en: Every decision is made: evaluate on the test set, once.
test_loss, test_acc = evaluate(model, test_loader)
print(f"test accuracy: {test_acc:.4f} ({round(test_acc * len(y_test))}/{len(y_test)})")
