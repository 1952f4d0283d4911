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
for _ in range(150):
    idx = torch.randint(700, (64,), device=device)
    loss = F.cross_entropy(pretrained(X_old[idx]), y_old[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"pretrained model, accuracy on the {len(X_old) - 700} held-out images of 0-4: {accuracy(pretrained, X_old[700:], y_old[700:]):.3f}")


class FineTuned(Net):
    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()  # zh: 主干里的 BatchNorm 保持预训练的统计量 | en: the backbone's BatchNorm keeps the pretrained statistics
        return self


def make(method):
    if method == "from scratch":
        return Net().to(device)
    model = FineTuned().to(device)
    model.load_state_dict(pretrained.state_dict())
    model.head = nn.Linear(256, 5).to(device)
    if method == "feature extraction":
        model.backbone.requires_grad_(False)  # zh: 只训练输出头 | en: train the head only
    return model  # zh: "full fine-tuning"：所有参数都训练 | en: "full fine-tuning": every parameter trains


# %%
# zh: 每类只有 2 张有标签的图像；换一个种子，就换一组训练图像和新输出头的初始值
# en: Only 2 labelled images per class; each seed draws other training images and another initial head.
methods, checkpoints, seeds = ["from scratch", "feature extraction", "full fine-tuning"], [5, 10, 20, 40], range(5)
results = {m: torch.zeros(len(seeds), len(checkpoints)) for m in methods}
for seed in seeds:
    order = torch.randperm(len(y_new), generator=torch.Generator().manual_seed(seed)).to(device)
    train = torch.cat([order[y_new[order] == c][:2] for c in range(5)])
    test = order[~torch.isin(order, train)]
    for method in methods:
        torch.manual_seed(seed)
        model = make(method)
        opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
        for step in range(1, checkpoints[-1] + 1):
            model.train()
            loss = F.cross_entropy(model(X_new[train]), y_new[train])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step in checkpoints:
                results[method][seed, checkpoints.index(step)] = accuracy(model, X_new[test], y_new[test])

print(f"{len(train)} training images, {len(test)} test images; test accuracy, mean ± std over {len(seeds)} seeds, after ... steps")
print(f"{'':20s}" + "".join(f"{s:>14d}" for s in checkpoints))
for method, acc in results.items():
    print(f"{method:20s}" + "".join(f"{m:>8.3f} ±{s:.3f}" for m, s in zip(acc.mean(0), acc.std(0), strict=False)))

# %%
# zh: 每个种子单独看：同一组训练图像上，特征提取比从零训练好的次数
# en: Seed by seed: on the same training images, how often feature extraction beats training from scratch.
wins = (results["feature extraction"] > results["from scratch"]).sum(0)
for s, w, lo, hi in zip(checkpoints, wins, results["from scratch"].min(0).values, results["from scratch"].max(0).values, strict=False):
    print(f"after {s:2d} steps: feature extraction ahead on {w} of {len(seeds)} seeds; from scratch ranges {lo:.3f}-{hi:.3f}")
