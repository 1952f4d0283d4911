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


def build_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Flatten(),
        nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
        nn.Linear(64, 10),
    ).to(device)


model = build_model()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(20):
    model.train()
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(xb), yb).backward()
        optimizer.step()


def predict(model, images):
    model.eval()
    with torch.no_grad():
        return model(images.to(device)).argmax(dim=1).cpu()


pred = predict(model, X_test)
acc = (pred == y_test).float().mean().item()
print(f"test accuracy: {acc:.4f}")
wrong = (pred != y_test).nonzero().flatten()
print("misclassified test images:", len(wrong))
for i in wrong[:5].tolist():
    print(f"  test #{i}: true {y_test[i].item()}, predicted {pred[i].item()}")

# %%
import matplotlib.pyplot as plt

mistakes = wrong[:4]
show = torch.cat([torch.arange(16 - len(mistakes)), mistakes])  # first digits + up to 4 mistakes
fig, axes = plt.subplots(2, 8, figsize=(6, 2.4))
for ax, i in zip(axes.flat, show.tolist(), strict=True):
    ok = pred[i] == y_test[i]
    ax.imshow(X_test[i, 0], cmap="gray_r")
    ax.set_title(f"{pred[i].item()} ({y_test[i].item()})", fontsize=9,
                 color="black" if ok else "red")
    ax.axis("off")
fig.suptitle("predicted (true); red = wrong", fontsize=9)
fig.tight_layout()
plt.show()

# %%
import os
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "digits_cnn.pt")
    torch.save(model.state_dict(), path)
    print("saved", os.path.basename(path), f"({os.path.getsize(path) // 1024} KiB)")
    reloaded = build_model()  # same architecture, fresh random weights
    reloaded.load_state_dict(torch.load(path, map_location=device, weights_only=True))

pred2 = predict(reloaded, X_test)
acc2 = (pred2 == y_test).float().mean().item()
print(f"reloaded test accuracy: {acc2:.4f}")
print("identical predictions:", torch.equal(pred, pred2))
