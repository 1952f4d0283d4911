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
device = "cuda" if torch.cuda.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)
y = torch.tensor(digits.target, dtype=torch.long)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.2, random_state=0, stratify=y)
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
test_loader = DataLoader(TensorDataset(X_test, y_test), batch_size=256)

model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),   # 8 x 8 x 8
    nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),  # 16 x 8 x 8
    nn.MaxPool2d(2),                                        # 16 x 4 x 4
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
history = {"train_loss": [], "test_loss": [], "train_acc": [], "test_acc": []}
epochs = 25
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
        # running averages over the epoch (the weights change as we go)
        total_loss += loss.item() * len(yb)
        correct += (logits.argmax(dim=1) == yb).sum().item()
        n += len(yb)
    history["train_loss"].append(total_loss / n)
    history["train_acc"].append(correct / n)
    test_loss, test_acc = evaluate(model, test_loader)
    history["test_loss"].append(test_loss)
    history["test_acc"].append(test_acc)
    if epoch % 5 == 0 or epoch == 1:
        print(f"epoch {epoch:2d}  train loss {total_loss / n:.4f}  "
              f"test loss {test_loss:.4f}  test acc {test_acc:.3f}")

# %% caption="Training and test loss per epoch"
import matplotlib.pyplot as plt

ep = range(1, epochs + 1)
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(ep, history["train_loss"], label="train")
ax.plot(ep, history["test_loss"], label="test")
ax.set_xlabel("epoch")
ax.set_ylabel("cross-entropy loss")
ax.set_yscale("log")
ax.legend()
fig.tight_layout()
plt.show()

# %% caption="Training and test accuracy per epoch"
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(ep, history["train_acc"], label="train")
ax.plot(ep, history["test_acc"], label="test")
ax.set_xlabel("epoch")
ax.set_ylabel("accuracy")
ax.legend()
fig.tight_layout()
plt.show()

# %%
test_loss, test_acc = evaluate(model, test_loader)
print(f"final test accuracy: {test_acc:.4f} ({round(test_acc * len(y_test))}/{len(y_test)})")
