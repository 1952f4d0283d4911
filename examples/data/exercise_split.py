# %%
import torch
from torch.utils.data import TensorDataset, random_split

torch.manual_seed(0)
X = torch.arange(50, dtype=torch.float32).unsqueeze(1)
ds = TensorDataset(X, X * 2)


def split(seed):
    return random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(seed))


train, val = split(0)
print("sizes:", len(train), len(val))
assert (len(train), len(val)) == (40, 10)

# zh: Subset 记着原数据集里的下标：两部分不重叠，合起来正好是全部
# en: A Subset keeps indices into the original dataset: the parts are disjoint and cover everything.
tr, va = set(train.indices), set(val.indices)
print("disjoint:", tr.isdisjoint(va), " cover all:", tr | va == set(range(50)))
print("val indices:", sorted(va))
assert tr.isdisjoint(va) and tr | va == set(range(50))

# %%
# zh: 同一个种子，同样的划分；换种子，划分就变
# en: The same seed gives the same split; another seed gives another.
print("seed 0 again, same:", split(0)[1].indices == val.indices)
print("seed 1, same:", split(1)[1].indices == val.indices)
x, y = val[0]  # zh: 取出的仍是原样本 | en: indexing returns the original samples
print("val[0]:", x, y, " from ds:", ds[val.indices[0]])
