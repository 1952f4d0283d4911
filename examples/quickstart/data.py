# %%
import torch
from sklearn.datasets import load_digits
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)

# zh: scikit-learn 自带的手写数字：1797 张 8×8 的灰度图，像素值 0–16
# en: Handwritten digits shipped with scikit-learn: 1797 greyscale 8×8 images, pixels 0–16.
digits = load_digits()
print("numpy arrays:", digits.data.shape, digits.data.dtype, digits.target.shape, digits.target.dtype)

# zh: 变成张量：输入用 float32 并缩放到 [0, 1]，类别标签用 int64（long）
# en: Into tensors: inputs as float32 scaled to [0, 1], class labels as int64 (long).
X = torch.tensor(digits.data, dtype=torch.float32) / 16.0
y = torch.tensor(digits.target, dtype=torch.long)
print("X:", X.shape, X.dtype, " min", X.min().item(), " max", X.max().item())
print("y:", y.shape, y.dtype, " first labels", y[:10].tolist())
print("the first image as 8×8:")
print(X[0].reshape(8, 8))

# %%
# zh: 把两个张量配成一个数据集，再按 80/20 随机分成训练集和测试集
# en: Pair the two tensors into a dataset, then split it 80/20 at random into train and test.
dataset = TensorDataset(X, y)
train_set, test_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
print("dataset:", len(dataset), " train:", len(train_set), " test:", len(test_set))
x0, y0 = train_set[0]
print("one sample:", x0.shape, "label", y0.item())

# zh: DataLoader 每次给出一个批量；训练集每轮打乱，测试集不用
# en: A DataLoader hands out one batch at a time; shuffle the training set every epoch, not the test set.
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
test_loader = DataLoader(test_set, batch_size=256)
xb, yb = next(iter(train_loader))
print("batches per epoch:", len(train_loader), " one batch:", tuple(xb.shape), tuple(yb.shape))
print("labels in the batch:", torch.bincount(yb, minlength=10).tolist())
