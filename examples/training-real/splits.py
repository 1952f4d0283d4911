# %%
import torch
from sklearn.datasets import load_digits
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
digits = load_digits()
X = torch.tensor(digits.data / 16.0, dtype=torch.float32)  # zh: (1797, 64)：8x8 的图像展平 | en: (1797, 64): 8x8 images, flattened
y = torch.tensor(digits.target, dtype=torch.long)
dataset = TensorDataset(X, y)

# zh: 70% 训练、15% 验证、15% 测试；固定种子的生成器让划分可以复现
# en: 70% train, 15% validation, 15% test; a seeded generator makes the split reproducible
train_set, val_set, test_set = random_split(dataset, [0.7, 0.15, 0.15], generator=torch.Generator().manual_seed(0))
print("sizes:", len(train_set), len(val_set), len(test_set))
print("first train indices:", train_set.indices[:8])

# %%
# zh: 同样的种子给出同样的划分；三部分互不相交，合起来正好是整个数据集
# en: the same seed gives the same split; the three parts are disjoint and cover the dataset
again = random_split(dataset, [0.7, 0.15, 0.15], generator=torch.Generator().manual_seed(0))
print("same split again:", [a.indices == b.indices for a, b in zip(again, (train_set, val_set, test_set), strict=True)])
parts = [set(s.indices) for s in (train_set, val_set, test_set)]
print("disjoint:", not (parts[0] & parts[1] or parts[0] & parts[2] or parts[1] & parts[2]),
      " cover all:", len(parts[0] | parts[1] | parts[2]) == len(dataset))
for name, s in [("train", train_set), ("val", val_set), ("test", test_set)]:
    print(f"{name:5s} class counts:", torch.bincount(y[s.indices], minlength=10).tolist())

# %%
# zh: 小批量：训练集每个轮次打乱（固定种子），验证集和测试集保持顺序
# en: mini-batches: shuffle the training set each epoch (seeded), keep validation and test in order
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
val_loader = DataLoader(val_set, batch_size=256)
test_loader = DataLoader(test_set, batch_size=256)
xb, yb = next(iter(train_loader))
print("one batch:", tuple(xb.shape), tuple(yb.shape))
print("batches per epoch:", len(train_loader), " (the last one has", len(train_set) % 64, "samples)")
