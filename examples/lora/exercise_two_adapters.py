# %%
import importlib.util
import math
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
perm = torch.randperm(len(data), device=device)
X, y = data[perm, :-1] / 16, data[perm, -1].long()
images = X.view(-1, 8, 8)
tasks = {  # zh: 同样的数字，三种样子 | en: the same digits, three ways
    "upright": X,
    "turned 90°": images.rot90(1, dims=(1, 2)).reshape(-1, 64),
    "mirrored": images.flip(2).reshape(-1, 64),
}
n = 900  # zh: 前 900 张训练，其余测试 | en: the first 900 for training, the rest for testing


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(64, 256), nn.Linear(256, 256), nn.Linear(256, 10)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features, device=base.weight.device))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, device=base.weight.device))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.A.T @ self.B.T)


def train(model, X, y, steps, lr=1e-2):
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=lr)
    for _step in range(steps):
        idx = torch.randint(len(X), (64,), device=device)
        loss = F.cross_entropy(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


@torch.no_grad()
def accuracy(model, X, y):
    return (model(X).argmax(dim=1) == y).float().mean().item()


pretrained = train(MLP().to(device), X[:n], y[:n], 300, lr=3e-3)


def with_adapter(base_model, r=4, alpha=16):
    """A new MLP whose layers wrap base_model's own layers: the base weights are shared, not copied."""
    model = MLP().to(device)
    for name in ["fc1", "fc2", "fc3"]:
        setattr(model, name, LoRALinear(getattr(base_model, name), r=r, alpha=alpha))
    return model


# %%
# zh: 一个基础模型，两个适配器：一个学转过的数字，一个学镜像的数字
# en: One base model, two adapters: one learns the turned digits, the other the mirrored ones.
models = {"base": pretrained}
for task in ["turned 90°", "mirrored"]:
    torch.manual_seed(0)
    models[f"+ {task} adapter"] = train(with_adapter(pretrained), tasks[task][:n], y[:n], 200)
print("base weights shared, not copied:", models["+ turned 90° adapter"].fc1.base is models["+ mirrored adapter"].fc1.base is pretrained.fc1)
print(f"{'test accuracy':22s}" + "".join(f"{t:>12s}" for t in tasks))
for name, model in models.items():
    print(f"{name:22s}" + "".join(f"{accuracy(model, X_t[n:], y[n:]):12.3f}" for X_t in tasks.values()))


