# %%
import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


# zh: 8 个样本，每个有 3 个特征和一个 0/1 标签；__getitem__ 忘了返回标签
# en: 8 samples of 3 features and a 0/1 label; __getitem__ forgets to return the label.
class FeaturesOnly(Dataset):
    def __init__(self, n=8):
        self.x = torch.randn(n, 3)
        self.y = torch.randint(0, 2, (n,))

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        return self.x[idx]


batch = next(iter(DataLoader(FeaturesOnly(), batch_size=4)))
print(type(batch).__name__, tuple(batch.shape))  # zh: 一个张量，不是 (输入, 标签) 对 | en: one tensor, not an (input, label) pair

# %% raises="ValueError"
# zh: 解包一个张量是按第 0 维取行：4 行拆不成 2 个名字
# en: Unpacking a tensor takes its rows along dim 0: 4 rows do not fit 2 names.
for xb, yb in DataLoader(FeaturesOnly(), batch_size=4):
    print(tuple(xb.shape), tuple(yb.shape))

# %% raises="ValueError"
# zh: batch_size=1 时只有 1 行
# en: With batch_size=1 there is a single row.
for xb, yb in DataLoader(FeaturesOnly(), batch_size=1):
    print(tuple(xb.shape), tuple(yb.shape))


# %%
# zh: 多返回一项（这里是下标）：批量是 3 项的列表
# en: One item too many (the index, here): the batch is a list of 3.
class WithIndex(FeaturesOnly):
    def __getitem__(self, idx):
        return self.x[idx], self.y[idx], idx


batch = next(iter(DataLoader(WithIndex(), batch_size=4)))
print(type(batch).__name__, len(batch))

# %% raises="ValueError"
for xb, yb in DataLoader(WithIndex(), batch_size=4):
    print(tuple(xb.shape), tuple(yb.shape))


# %%
# zh: 修正：__getitem__ 返回 (输入, 标签)，训练循环按同样的结构解包
# en: The fix: __getitem__ returns (input, label), and the loop unpacks the same structure.
class Pairs(FeaturesOnly):
    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


for xb, yb in DataLoader(Pairs(), batch_size=4):
    print("xb:", tuple(xb.shape), " yb:", tuple(yb.shape))
for xb, yb, idx in DataLoader(WithIndex(), batch_size=4):  # zh: 或者解包 3 项 | en: or unpack 3 items
    print("idx:", idx, " xb:", tuple(xb.shape), " yb:", tuple(yb.shape))
