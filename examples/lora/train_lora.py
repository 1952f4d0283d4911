# %%
import copy
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
X_rot = X.view(-1, 8, 8).rot90(1, dims=(1, 2)).reshape(-1, 64)  # zh: 新任务：同样的数字，转了 90° | en: the new task: the same digits, turned by 90°
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
print(f"pretrained: upright test digits {accuracy(pretrained, X[n:], y[n:]):.3f}, turned by 90° {accuracy(pretrained, X_rot[n:], y[n:]):.3f}")


def with_lora(model, r, alpha=16):
    model = copy.deepcopy(model)
    for name in ["fc1", "fc2", "fc3"]:
        setattr(model, name, LoRALinear(getattr(model, name), r=r, alpha=alpha))
    return model


# %%
model = with_lora(pretrained, r=4)
print(f"with fresh LoRA adapters (r=4): turned digits {accuracy(model, X_rot[n:], y[n:]):.3f}, "
      f"outputs equal to the pretrained model: {torch.equal(model(X_rot), pretrained(X_rot))}")

# %%
# zh: 在转过的数字上训练 200 步：完整微调和不同秩的 LoRA，各 2 个种子
# en: 200 steps on the turned digits: full fine-tuning and LoRA of several ranks, 2 seeds each.
print(f"{'':18s} {'trainable':>9s}  test accuracy (seeds 0, 1)")
for r in [None, 1, 4, 16]:
    accs = []
    for seed in range(2):
        torch.manual_seed(seed)
        model = copy.deepcopy(pretrained) if r is None else with_lora(pretrained, r)
        accs.append(accuracy(train(model, X_rot[:n], y[:n], 200), X_rot[n:], y[n:]))
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"{'full fine-tuning' if r is None else f'LoRA r={r}':18s} {trainable:9d}  {accs[0]:.3f}, {accs[1]:.3f}")
lora_r16 = model  # zh: 最后训练的模型：r = 16，种子 1 | en: the last model trained: r = 16, seed 1

# %%
# zh: LoRA 训练完，预训练的权重一个没动：要存、要传的只有 A 和 B
# en: After LoRA training not one pretrained weight has moved: A and B are all there is to store or ship.
base_unchanged = all(torch.equal(getattr(lora_r16, f).base.weight, getattr(pretrained, f).weight) for f in ["fc1", "fc2", "fc3"])
adapter = {k: v for k, v in lora_r16.state_dict().items() if k.endswith((".A", ".B"))}
print("pretrained weights unchanged:", base_unchanged)
print("adapter tensors:", list(adapter))
print(f"adapter {sum(v.numel() for v in adapter.values()) * 4} bytes vs whole model {sum(v.numel() for v in pretrained.state_dict().values()) * 4} bytes")
