# /// example
# timeout = 120
# ///
# %%
import math

import torch
import torch.nn.functional as F
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)  # zh: (N, 1, 8, 8) | en: (N, 1, 8, 8)
y = torch.tensor(digits.target)
# zh: 只留 300 张训练图：数据少时增强才显出作用
# en: Keep only 300 training images: augmentation shows its worth when data is scarce.
X_train, X_test, y_train, y_test = train_test_split(X, y, train_size=300, random_state=0, stratify=y)
print("train:", tuple(X_train.shape), " test:", tuple(X_test.shape))


def random_affine(x, generator, degrees=12, shift=0.15, scale=(0.9, 1.1)):
    # zh: 整个批量一次做完：每张图有自己的旋转角、缩放和平移
    # en: The whole batch at once: every image gets its own angle, scale and shift.
    n = x.shape[0]
    angle = (torch.rand(n, generator=generator) * 2 - 1) * math.radians(degrees)
    s = torch.empty(n).uniform_(*scale, generator=generator)
    # zh: 坐标范围是 [-1, 1]，宽度为 2
    # en: Coordinates span [-1, 1], a width of 2.
    t = (torch.rand(n, 2, generator=generator) * 2 - 1) * 2 * shift
    cos, sin = torch.cos(angle) / s, torch.sin(angle) / s
    theta = torch.stack([torch.stack([cos, -sin, t[:, 0]], 1), torch.stack([sin, cos, t[:, 1]], 1)], 1)
    grid = F.affine_grid(theta.to(x.device), x.shape, align_corners=False)
    # zh: 移出画面的部分补 0（背景）
    # en: Whatever moves out of frame is filled with 0 (background).
    return F.grid_sample(x, grid, align_corners=False)


# %% caption="Row 1: training digits; rows 2-4: random affine augmentations of them" caption_zh="第 1 行：训练集数字；第 2 到 4 行：它们的随机仿射增强"
import matplotlib.pyplot as plt

g = torch.Generator().manual_seed(0)
fig, axes = plt.subplots(4, 10, figsize=(8, 3.4))
views = [X_train[:10]] + [random_affine(X_train[:10], g) for _ in range(3)]
for row, batch in zip(axes, views, strict=True):
    for ax, img in zip(row, batch, strict=True):
        ax.imshow(img[0], cmap="gray_r", vmin=0, vmax=1)
        ax.axis("off")
fig.tight_layout()
plt.show()


# %%
def train(augment, epochs=60):
    torch.manual_seed(0)
    order = torch.Generator().manual_seed(0)  # zh: 两次训练的打乱顺序相同 | en: the same shuffling in both runs
    aug = torch.Generator().manual_seed(1)
    model = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Flatten(),
        nn.Linear(32 * 4 * 4, 64), nn.ReLU(),
        nn.Linear(64, 10),
    ).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    Xd, yd = X_train.to(device), y_train.to(device)
    for _ in range(epochs):
        perm = torch.randperm(len(Xd), generator=order)
        for k in range(0, len(Xd), 32):
            idx = perm[k:k + 32].to(device)
            xb = random_affine(Xd[idx], aug) if augment else Xd[idx]
            loss = F.cross_entropy(model(xb), yd[idx])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        train_acc = (model(Xd).argmax(1) == yd).float().mean().item()
        test_acc = (model(X_test.to(device)).argmax(1) == y_test.to(device)).float().mean().item()
    return train_acc, test_acc


for augment in (False, True):
    train_acc, test_acc = train(augment)
    errors = round((1 - test_acc) * len(y_test))
    print(f"augment={augment!s:5s}  train acc {train_acc:.3f}  test acc {test_acc:.4f}  "
          f"({errors} of {len(y_test)} test images wrong)")
