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


def build_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Flatten(),
        nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
        nn.Linear(64, 10),
    ).to(device)


# zh: 和上一个示例同样的种子、数据和 20 个轮次，得到同样的权重
# en: Same seed, data and 20 epochs as the previous example: the same weights.
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

# %% caption_zh="测试集里的数字：标题是预测值，括号里是真实值，预测错的标为红色" caption_en="Test digits: each title is the prediction, the true label in brackets; wrong ones in red"
import matplotlib.pyplot as plt

mistakes = wrong[:4]
show = torch.cat([torch.arange(16 - len(mistakes)), mistakes])  # zh: 前几张图加上最多 4 个错例 | en: first digits + up to 4 mistakes
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
    reloaded = build_model()  # zh: 同样的结构，新的随机权重 | en: same architecture, fresh random weights
    reloaded.load_state_dict(torch.load(path, map_location=device, weights_only=True))

pred2 = predict(reloaded, X_test)
acc2 = (pred2 == y_test).float().mean().item()
print(f"reloaded test accuracy: {acc2:.4f}")
print("identical predictions:", torch.equal(pred, pred2))
