# %%
import torch
from torch.utils.data import Dataset

torch.manual_seed(0)


# zh: y = 2x + 1 + 噪声，一次生成，保存在内存里
# en: y = 2x + 1 + noise, generated once and kept in memory.
class NoisyLine(Dataset):
    def __init__(self, n=10):
        self.x = torch.linspace(-1, 1, n).unsqueeze(1)  # zh: 形状 (n, 1) | en: shape (n, 1)
        self.y = 2 * self.x + 1 + 0.1 * torch.randn(n, 1)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


ds = NoisyLine(n=10)
print("len(ds):", len(ds))

# %%
x0, y0 = ds[0]  # zh: __getitem__ 返回一个样本 | en: __getitem__ returns one sample
print("ds[0]:", x0, y0)
print("sample shapes:", x0.shape, y0.shape)
print("ds[-1]:", ds[-1])

# %%
# zh: Dataset 只是 len + getitem：Python 甚至能直接迭代它，
# zh: 依次调用 ds[0]、ds[1]……直到 IndexError
# en: A Dataset is just len + getitem: Python can even iterate it,
# en: calling ds[0], ds[1], ... until an IndexError.
for i, (x, y) in enumerate(ds):
    if i == 3:
        break
    print(i, round(x.item(), 3), round(y.item(), 3))
print("len(list(ds)):", len(list(ds)))
