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

# %%
# zh: 预训练模型的输出头只认识 0–4：把 5–9 的图像给它，它也只会答 0–4
# en: The pretrained head knows only 0-4: shown images of 5-9, it can only answer 0-4.
with torch.no_grad():
    pretrained.eval()
    print("pretrained head:", pretrained.head)
    print("its answers for the 896 images of 5-9, per class 0-4:", torch.bincount(pretrained(X_new).argmax(dim=1), minlength=5).tolist())

# zh: 实际工作中预训练权重来自文件：建同样的结构，加载权重，再换上新的输出头
# en: At work the pretrained weights come from a file: build the same architecture, load them, then put on a new head.
torch.save(pretrained.state_dict(), "pretrained.pt")
model = Net().to(device)
model.load_state_dict(torch.load("pretrained.pt", weights_only=True))
model.head = nn.Linear(256, 5).to(device)  # zh: 新任务的类别，重新初始化 | en: the new task's classes, freshly initialised
same = [torch.equal(a, b) for a, b in zip(model.backbone.parameters(), pretrained.backbone.parameters(), strict=False)]
print("backbone equals the pretrained one:", all(same), " head equals the old head:", torch.equal(model.head.weight, pretrained.head.weight))

# %%
model.backbone.requires_grad_(False)  # zh: 冻结主干：它的每个参数都不再需要梯度 | en: freeze the backbone: none of its parameters needs a gradient any more
for name, p in model.named_parameters():
    print(f"{name:20s} {p.numel():5d}  requires_grad={p.requires_grad}")
total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"total {total}, trainable {trainable} ({trainable / total:.1%})")

# %%
# zh: 新任务只有很少的标签：每类 5 张，共 25 张
# en: The new task has few labels: 5 images per class, 25 in all.
order = torch.randperm(len(y_new), generator=torch.Generator().manual_seed(0)).to(device)
train = torch.cat([order[y_new[order] == c][:5] for c in range(5)])
test = order[~torch.isin(order, train)]

model.train()
features = model.backbone(X_new[train])
print("backbone output requires_grad:", features.requires_grad)  # zh: 主干里没有记录计算图 | en: no graph was recorded in the backbone
loss = F.cross_entropy(model.head(features), y_new[train])
loss.backward()
print("parameters whose .grad is None:", [n for n, p in model.named_parameters() if p.grad is None])

# zh: 只把还要训练的参数交给优化器
# en: Hand the optimizer only the parameters that still train.
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
print("tensors the optimizer updates:", len(opt.param_groups[0]["params"]))
for _step in range(20):
    loss = F.cross_entropy(model(X_new[train]), y_new[train])
    opt.zero_grad()
    loss.backward()
    opt.step()
print(f"trained on {len(train)} images; accuracy on the {len(test)} test images of 5-9: {accuracy(model, X_new[test], y_new[test]):.3f}")

# %%
# zh: 参数一个没变；可是 state_dict 里还有缓冲区
# en: Not one parameter changed; but the state_dict also holds buffers.
old, new = pretrained.backbone.state_dict(), model.backbone.state_dict()
print("parameters unchanged:", all(torch.equal(a, b) for a, b in zip(pretrained.backbone.parameters(), model.backbone.parameters(), strict=False)))
print("state_dict entries that changed:", [k for k in old if not torch.equal(old[k], new[k])])
