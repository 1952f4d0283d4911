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
train = torch.cat([order[y_new[order] == c][:5] for c in range(5)])  # zh: 每类 5 张有标签的图像 | en: 5 labelled images per class
test = order[~torch.isin(order, train)]


class FineTuned(Net):
    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()
        return self


model = FineTuned().to(device)
model.load_state_dict(pretrained.state_dict())
model.head = nn.Linear(256, 5).to(device)

# zh: 两个参数组：预训练的主干用小学习率，新的输出头用大学习率
# en: Two parameter groups: a small learning rate for the pretrained backbone, a large one for the new head.
opt = torch.optim.Adam([
    {"params": model.backbone.parameters(), "lr": 1e-3},
    {"params": model.head.parameters()},  # zh: 没写 lr，用下面的默认值 | en: no lr of its own: takes the default below
], lr=1e-2)
for i, group in enumerate(opt.param_groups):
    print(f"group {i}: lr={group['lr']}, {len(group['params'])} tensors, {sum(p.numel() for p in group['params'])} parameters")

# %%
# zh: 主干的学习率从 0（相当于冻结）到和输出头一样大，每种 3 个种子：主干离预训练权重走了多远，旧任务还剩多少
# en: Backbone learning rate from 0 (as good as frozen) up to the head's, 3 seeds each: how far the backbone moves
# en: from the pretrained weights, and how much of the old task survives.
X_test_old, y_test_old = X_old[700:], y_old[700:]
w0 = torch.cat([p.flatten() for p in pretrained.backbone.parameters()]).detach()
for backbone_lr in [0.0, 1e-3, 1e-2]:
    new_acc, moved, old_acc = [], [], []
    for seed in range(3):
        torch.manual_seed(seed)
        model = FineTuned().to(device)
        model.load_state_dict(pretrained.state_dict())
        model.head = nn.Linear(256, 5).to(device)
        opt = torch.optim.Adam([{"params": model.backbone.parameters(), "lr": backbone_lr}, {"params": model.head.parameters()}], lr=1e-2)
        for _step in range(40):
            model.train()
            loss = F.cross_entropy(model(X_new[train]), y_new[train])
            opt.zero_grad()
            loss.backward()
            opt.step()
        w = torch.cat([p.flatten() for p in model.backbone.parameters()]).detach()
        moved.append(((w - w0).norm() / w0.norm()).item())
        new_acc.append(accuracy(model, X_new[test], y_new[test]))
        old_acc.append(accuracy(nn.Sequential(model.backbone, pretrained.head), X_test_old, y_test_old))  # zh: 微调后的主干配旧输出头 | en: the fine-tuned backbone with the old head
    print(f"backbone lr {backbone_lr:<6}: new task {np.mean(new_acc):.3f} (seeds {min(new_acc):.3f}-{max(new_acc):.3f}), "
          f"backbone moved {np.mean(moved):6.1%}, old task {np.mean(old_acc):.3f}")
