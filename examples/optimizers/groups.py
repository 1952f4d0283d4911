# %%
import torch
from torch import nn

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(8, 16), nn.ReLU())
head = nn.Linear(16, 3)
model = nn.Sequential(backbone, head)

# zh: （预训练的）主干用较小的学习率，新加的输出头用较大的
# en: a smaller learning rate for the (pretrained) backbone, a larger one for the new head
optimizer = torch.optim.AdamW(
    [
        {"params": backbone.parameters(), "lr": 1e-4},
        {"params": head.parameters(), "weight_decay": 0.0},
    ],
    lr=1e-2,  # zh: 没有自己设置的参数组用这个默认值 | en: default for any group that does not set its own
    weight_decay=0.05,
)
for i, g in enumerate(optimizer.param_groups):
    print(f"group {i}: lr={g['lr']} weight_decay={g['weight_decay']} tensors={len(g['params'])}")

# %%
# zh: 用 AdamW 的公式核对每组的一步（第一步：p*(1 - lr*wd) - lr * g/|g|）
# en: check one step of each group against the AdamW rule (first step: p*(1 - lr*wd) - lr * g/|g|)
x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))
before = [p.detach().clone() for p in model.parameters()]
nn.functional.cross_entropy(model(x), y).backward()
grads = [p.grad.clone() for p in model.parameters()]
optimizer.step()
params = list(model.parameters())
for g in optimizer.param_groups:
    for p in g["params"]:
        i = next(k for k, q in enumerate(params) if q is p)
        expected = before[i] * (1 - g["lr"] * g["weight_decay"]) - g["lr"] * grads[i] / (grads[i].abs() + g["eps"])
        torch.testing.assert_close(p.detach(), expected)
        print(f"{str(tuple(p.shape)):8s} lr={g['lr']:<7} max |step| = {(p.detach() - before[i]).abs().max().item():.2e}")

# %%
# zh: add_param_group：中途加入参数，比如训练到一半解冻的层
# en: add_param_group: bring in parameters later, e.g. a layer unfrozen mid-training
extra = nn.Linear(3, 3)
optimizer.add_param_group({"params": extra.parameters(), "lr": 1e-3})
g = optimizer.param_groups[-1]
print("groups:", len(optimizer.param_groups), " new group lr:", g["lr"], " weight_decay:", g["weight_decay"])

# %% raises="ValueError"
optimizer.add_param_group({"params": head.parameters()})  # zh: 一个张量只能属于一个参数组 | en: a tensor may be in only one group
