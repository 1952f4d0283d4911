# /// example
# timeout = 120
# ///
# %%
import math

import torch
from sklearn.datasets import load_wine
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程反而更慢 | en: a tiny model: more CPU threads only slow it down

# zh: 178 瓶酒，13 个化学指标，3 个类别；各列的量级相差很大
# en: 178 wines, 13 chemical measurements, 3 classes; the columns live on very different scales.
wine = load_wine()
X = torch.tensor(wine.data, dtype=torch.float32)
y = torch.tensor(wine.target)
print("X:", tuple(X.shape), " samples per class:", torch.bincount(y).tolist())
print("column means:", [round(m, 1) for m in X.mean(dim=0).tolist()])

train_idx, test_idx = random_split(range(len(y)), [0.8, 0.2], generator=torch.Generator().manual_seed(0))
train_idx, test_idx = list(train_idx), list(test_idx)


def run(X, epochs=30):
    torch.manual_seed(0)
    train_loader = DataLoader(TensorDataset(X[train_idx], y[train_idx]), batch_size=16, shuffle=True,
                              generator=torch.Generator().manual_seed(0))
    model = nn.Sequential(nn.Linear(13, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(epochs):
        model.train()
        for xb, yb in train_loader:
            loss = nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        pred = model(X[test_idx].to(device)).argmax(dim=1).cpu()
    acc = (pred == y[test_idx]).float().mean().item()
    print(f"  last batch loss {loss.item():.4f}  test accuracy {acc:.3f}  predicted classes {torch.bincount(pred, minlength=3).tolist()}")


print("raw features:")
run(X)
print(f"  (log 3 = {math.log(3):.4f}: the loss of guessing 1/3 for every class)")
# zh: 标准化：均值和标准差只从训练集算，再套用到测试集
# en: Standardise: mean and std from the training set only, then applied to the test set too.
mean, std = X[train_idx].mean(dim=0), X[train_idx].std(dim=0)
print("standardised features:")
run((X - mean) / std)
