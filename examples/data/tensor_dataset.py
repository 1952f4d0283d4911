# %%
import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: 两团高斯分布：200 个二维点，标签为 0/1
# en: Two Gaussian blobs: 200 points in 2-D with labels 0/1.
n = 100
X = torch.cat([torch.randn(n, 2) + torch.tensor([-2.0, 0.0]), torch.randn(n, 2) + torch.tensor([2.0, 0.0])])
y = torch.cat([torch.zeros(n, dtype=torch.long), torch.ones(n, dtype=torch.long)])

ds = TensorDataset(X, y)  # zh: 沿第 0 维索引每个张量 | en: indexes every tensor along dim 0
print("len(ds):", len(ds))
print("ds[0]:", ds[0])

# %%
g = torch.Generator().manual_seed(0)
loader = DataLoader(ds, batch_size=32, shuffle=True, generator=g)
print("batches per epoch:", len(loader))
for i, (xb, yb) in enumerate(loader):
    # zh: 每次搬一个批量，而不是整个数据集
    # en: Move each batch, not the whole dataset.
    xb, yb = xb.to(device), yb.to(device)
    print(f"batch {i}: xb {tuple(xb.shape)} yb {tuple(yb.shape)} class-1 share {yb.float().mean():.2f}")

# %% caption_zh="从 TensorDataset 打乱后取出的一个 32 个样本的批次"
g = torch.Generator().manual_seed(0)
xb, yb = next(iter(DataLoader(ds, batch_size=32, shuffle=True, generator=g)))
plt.figure(figsize=(6, 3.5))
plt.scatter(X[:, 0], X[:, 1], c="lightgray", s=12, label="dataset")
for cls, color in [(0, "tab:blue"), (1, "tab:orange")]:
    m = yb == cls
    plt.scatter(xb[m, 0], xb[m, 1], c=color, s=30, label=f"batch, class {cls}")
plt.title("One shuffled batch of 32 from a TensorDataset")
plt.xlabel("x0")
plt.ylabel("x1")
plt.legend(loc="upper left", fontsize=8)
plt.tight_layout()
plt.show()
