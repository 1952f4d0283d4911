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


def new_model(cls=Net):
    model = cls().to(device)
    model.load_state_dict(pretrained.state_dict())
    model.head = nn.Linear(256, 5).to(device)
    model.backbone.requires_grad_(False)
    return model


def fit(model, epochs=4, steps=5):
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
    for _epoch in range(epochs):
        model.train()  # zh: 常见的训练循环：每轮开始时切回训练模式 | en: the usual loop: back to training mode at the start of each epoch
        for _step in range(steps):
            loss = F.cross_entropy(model(X_new[train]), y_new[train])
            opt.zero_grad()
            loss.backward()
            opt.step()
        accuracy(model, X_new[test], y_new[test])  # zh: 每轮结束时评估一次（会切到 eval） | en: evaluate after each epoch (switches to eval)
    return model


# %%
naive = fit(new_model())
bn = naive.backbone[1]  # zh: 主干里的第一个 BatchNorm2d | en: the first BatchNorm2d in the backbone
print("any backbone parameter requires grad:", any(p.requires_grad for p in naive.backbone.parameters()))
print("running_mean before:", pretrained.backbone[1].running_mean[:4])
print("running_mean after: ", bn.running_mean[:4])
print("num_batches_tracked:", pretrained.backbone[1].num_batches_tracked.item(), "->", bn.num_batches_tracked.item())

# zh: 后果：同一张图像，“冻结”的主干给出的特征变了；原来的模型在 0–4 上的输出也变了
# en: The effect: the "frozen" backbone gives other features for the same image, and the original model's outputs on 0-4 change.
X_test_old, y_test_old = X_old[700:], y_old[700:]
with torch.no_grad():
    pretrained.eval(), naive.eval()
    before = pretrained(X_test_old)
    after = pretrained.head(naive.backbone(X_test_old))
    f0, f1 = pretrained.backbone(X_new[test]), naive.backbone(X_new[test])
print(f"features of the 5-9 test images moved by {((f1 - f0).norm() / f0.norm()).item():.1%}")
print(f"old task (0-4) with the old head: largest logit change {(after - before).abs().max().item():.2f}, "
      f"predictions changed: {(after.argmax(1) != before.argmax(1)).sum().item()} of {len(y_test_old)}")

# %%
# zh: 只调一次 backbone.eval() 不够：下一轮开头的 model.train() 又把它切回训练模式
# en: Calling backbone.eval() once is not enough: the next epoch's model.train() switches it back.
model = new_model()
model.backbone.eval()
print("after backbone.eval():", model.backbone[1].training)
model.train()
print("after model.train():  ", model.backbone[1].training)


# %%
# zh: 修正：重写 train()，让主干永远停在 eval 模式
# en: The fix: override train() so that the backbone always stays in eval mode.
class FineTuned(Net):
    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()  # zh: BatchNorm 用预训练的统计量，也不再更新它们 | en: BatchNorm uses, and no longer updates, the pretrained statistics
        return self


fixed = fit(new_model(FineTuned))
old, new = pretrained.backbone.state_dict(), fixed.backbone.state_dict()
print("after model.train():", fixed.train().backbone[1].training)
print("state_dict entries that changed:", [k for k in old if not torch.equal(old[k], new[k])])
print(f"new task accuracy: BatchNorm left in train mode {accuracy(naive, X_new[test], y_new[test]):.3f}, "
      f"kept in eval mode {accuracy(fixed, X_new[test], y_new[test]):.3f}")
