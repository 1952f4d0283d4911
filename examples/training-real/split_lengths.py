# %%
import importlib.util
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import TensorDataset, random_split

# zh: scikit-learn 的 load_digits() 读的就是这个文件；直接读它，省下导入 scikit-learn 的时间
# en: scikit-learn's load_digits() reads this very file; reading it directly saves the time of importing scikit-learn.
path = Path(importlib.util.find_spec("sklearn").origin).parent / "datasets" / "data" / "digits.csv.gz"
data = torch.tensor(np.loadtxt(path, delimiter=","), dtype=torch.float32)
dataset = TensorDataset(data[:, :-1] / 16, data[:, -1].long())
print("samples in the dataset:", len(dataset))

# %% raises="ValueError"
# zh: 从别的数据集抄来的样本个数：加起来是 1300，不是这个数据集的长度
# en: Sample counts copied from another dataset: they add up to 1300, not to this dataset's length.
random_split(dataset, [1000, 300], generator=torch.Generator().manual_seed(0))

# %%
# zh: 改法一：给比例，random_split 按数据集的长度算出个数
# en: Fix 1: give fractions, and random_split works out the counts from the dataset's length.
train_set, val_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
print("fractions [0.8, 0.2]:", len(train_set), len(val_set))

# zh: 改法二：自己算个数，最后一份取剩下的，保证总和正确
# en: Fix 2: compute the counts yourself, the last part taking what is left, so that the sum is right.
n_train = int(0.8 * len(dataset))
train_set, val_set = random_split(dataset, [n_train, len(dataset) - n_train], generator=torch.Generator().manual_seed(0))
print("computed lengths:    ", len(train_set), len(val_set))

# zh: 真的只想要 1000 + 300 个样本：把其余的样本分成第三份，不用它就是了
# en: If you really want only 1000 + 300 samples: put the rest into a third part and leave it unused.
train_set, val_set, unused = random_split(dataset, [1000, 300, len(dataset) - 1300], generator=torch.Generator().manual_seed(0))
print("1000 + 300 + the rest:", len(train_set), len(val_set), len(unused))
