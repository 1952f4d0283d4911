# %%
import numpy as np
import torch
from sklearn.datasets import load_digits

digits = load_digits()  # ships with scikit-learn: no download
print("images:", digits.images.shape, digits.images.dtype)
print("targets:", digits.target.shape, "classes:", np.unique(digits.target))
print("pixel range:", digits.images.min(), "to", digits.images.max())
print("images per class:", np.bincount(digits.target))

# %% caption="The first 16 handwritten digits with their labels"
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

X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)  # (N, 1, 8, 8)
y = torch.tensor(digits.target, dtype=torch.long)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.2, random_state=0, stratify=y)
print("train:", tuple(X_train.shape), " test:", tuple(X_test.shape))

torch.manual_seed(0)
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
test_loader = DataLoader(TensorDataset(X_test, y_test), batch_size=256)
xb, yb = next(iter(train_loader))
print("one batch:", tuple(xb.shape), xb.dtype, tuple(yb.shape), yb.dtype)
print("batches per epoch:", len(train_loader))
