# %%
import numpy as np
import torch
from sklearn.datasets import load_digits

digits = load_digits()  # zh: 随 scikit-learn 一起安装，不用下载 | en: ships with scikit-learn: no download
print("images:", digits.images.shape, digits.images.dtype)
print("targets:", digits.target.shape, "classes:", np.unique(digits.target))
print("pixel range:", digits.images.min(), "to", digits.images.max())
print("images per class:", np.bincount(digits.target))

# %% caption="The first 16 handwritten digits with their labels" caption_zh="前 16 个手写数字及其标签"
import matplotlib.pyplot as plt

fig, axes = plt.subplots(2, 8, figsize=(6, 2))
for i, ax in enumerate(axes.flat):
    ax.imshow(digits.images[i], cmap="gray_r")
    ax.set_title(str(digits.target[i]))
    ax.axis("off")
fig.tight_layout()
plt.show()

# %%
from sklearn.model_selection import train_test_split
from torch.utils.data import DataLoader, TensorDataset

X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)  # zh: 形状 (N, 1, 8, 8) | en: (N, 1, 8, 8)
y = torch.tensor(digits.target, dtype=torch.long)
# zh: 先分出测试集（15%），再从剩下的数据里分出同样大小的验证集；stratify 让各类别比例一致
# en: Split off the test set (15%) first, then a validation set of the same size; stratify keeps the class mix.
X_rest, X_test, y_rest, y_test = train_test_split(X, y, test_size=0.15, random_state=0, stratify=y)
X_train, X_val, y_train, y_val = train_test_split(
    X_rest, y_rest, test_size=len(y_test), random_state=0, stratify=y_rest)
print("train:", tuple(X_train.shape), " validation:", tuple(X_val.shape), " test:", tuple(X_test.shape))
print("test images per class:", torch.bincount(y_test).tolist())

torch.manual_seed(0)
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True,
                          generator=torch.Generator().manual_seed(0))  # zh: 打乱顺序可以复现 | en: reproducible shuffling
val_loader = DataLoader(TensorDataset(X_val, y_val), batch_size=256)
test_loader = DataLoader(TensorDataset(X_test, y_test), batch_size=256)
xb, yb = next(iter(train_loader))
print("one batch:", tuple(xb.shape), xb.dtype, tuple(yb.shape), yb.dtype)
print("batches per epoch:", len(train_loader))
