# %%
import importlib.util
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

# zh: scikit-learn 的 load_digits() 读的就是这个文件；直接读它，省下导入 scikit-learn 的几秒钟
# en: scikit-learn's load_digits() reads this very file; reading it directly saves the seconds that importing scikit-learn takes.
path = Path(importlib.util.find_spec("sklearn").origin).parent / "datasets" / "data" / "digits.csv.gz"
data = torch.tensor(np.loadtxt(path, delimiter=","), dtype=torch.float32, device=device)
X, y = (data[:, :-1] / 16).view(-1, 1, 8, 8), data[:, -1].long()

# zh: 预训练任务：数字 0–4；新任务：数字 5–9（标签改成 0–4）
# en: Pretraining task: digits 0-4; new task: digits 5-9 (labels shifted to 0-4).
perm = torch.randperm(int((y < 5).sum()), device=device)
X_old, y_old = X[y < 5][perm], y[y < 5][perm]
X_new, y_new = X[y >= 5], y[y >= 5] - 5
print("digits 0-4:", len(X_old), " digits 5-9:", len(X_new))


class Net(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        # zh: 主干网络：把图像变成 256 个特征
        # en: The backbone turns an image into 256 features.
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),  # zh: 8×8 -> 4×4 | en: 8×8 -> 4×4
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.Flatten(),  # zh: 16 × 4 × 4 = 256 | en: 16 × 4 × 4 = 256
        )
        self.head = nn.Linear(256, num_classes)  # zh: 输出头：特征 -> 类别分数 | en: the head: features -> class scores

    def forward(self, x):
        return self.head(self.backbone(x))


@torch.no_grad()
def accuracy(model, X, y):
    model.eval()
    return (model(X).argmax(dim=1) == y).float().mean().item()


# zh: 预训练：在 700 张 0–4 上训练 150 步，留下其余的做测试
# en: Pretraining: 150 steps on 700 images of 0-4, keeping the rest for testing.
pretrained = Net().to(device)
opt = torch.optim.Adam(pretrained.parameters(), lr=1e-2)
for _step in range(150):
    idx = torch.randint(700, (64,), device=device)
    loss = F.cross_entropy(pretrained(X_old[idx]), y_old[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"pretrained model, accuracy on the {len(X_old) - 700} held-out images of 0-4: {accuracy(pretrained, X_old[700:], y_old[700:]):.3f}")

order = torch.randperm(len(y_new), generator=torch.Generator().manual_seed(0)).to(device)
train = torch.cat([order[y_new[order] == c][:5] for c in range(5)])
test = order[~torch.isin(order, train)]


class FineTuned(Net):
    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()
        return self


def head_through_backbone(steps=100):
    model = FineTuned().to(device)
    model.load_state_dict(pretrained.state_dict())
    torch.manual_seed(0)  # zh: 两种做法的新输出头从同样的初始值开始 | en: both ways start from the same initial head
    model.head = nn.Linear(256, 5).to(device)
    model.backbone.requires_grad_(False)
    opt = torch.optim.Adam(model.head.parameters(), lr=1e-2)
    model.train()
    for _step in range(steps):
        loss = F.cross_entropy(model(X_new[train]), y_new[train])  # zh: 每一步都让图像再过一遍主干 | en: every step runs the images through the backbone again
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model.head


def head_on_cached_features(steps=100):
    with torch.no_grad():
        pretrained.eval()
        cached = pretrained.backbone(X_new[train])  # zh: 主干的输出只算一次 | en: the backbone's output, computed once
    torch.manual_seed(0)
    head = nn.Linear(256, 5).to(device)
    opt = torch.optim.Adam(head.parameters(), lr=1e-2)
    for _step in range(steps):
        loss = F.cross_entropy(head(cached), y_new[train])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return head


# %%
a, b = head_through_backbone(), head_on_cached_features()
print("same head weights:", torch.equal(a.weight, b.weight), torch.equal(a.bias, b.bias))
with torch.no_grad():
    features = pretrained.backbone(X_new[test])
print(f"test accuracy of the cached-feature head: {(b(features).argmax(1) == y_new[test]).float().mean().item():.3f}")

# %% volatile=true
import time

for f in [head_through_backbone, head_on_cached_features]:
    start = time.perf_counter()
    f()
    print(f"{f.__name__:24s} {time.perf_counter() - start:.3f} s")
