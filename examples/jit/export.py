# %%
import os
import tempfile

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 2)

    def forward(self, x):
        return torch.relu(self.lin(x)) * 2


model = Small().to(device).eval()
x = torch.randn(3, 4, device=device)
ep = torch.export.export(model, (x,))
print(ep.graph_module.code.strip())
print(ep.graph_signature)

# %% warns="UserWarning"
runnable = ep.module()  # zh: 又是一个 nn.Module | en: an nn.Module again
print("same output:", torch.allclose(runnable(x), model(x)))
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "small.pt2")
    torch.export.save(ep, path)
    reloaded = torch.export.load(path)
print("reloaded same output:", torch.allclose(reloaded.module()(x), model(x)))


# %%
# zh: 依赖张量数值的 Python `if` 无法导出；torch.cond 把两个分支都记录下来
# en: A Python `if` on tensor values cannot be exported; torch.cond keeps both branches.
class Branchy(nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda t: t * 2, lambda t: -t, (x,))


ep2 = torch.export.export(Branchy(), (torch.ones(3, device=device),))
print(ep2.graph_module.code.strip())
m2 = ep2.module()
pos = torch.ones(3, device=device)
print("pos ->", m2(pos), " neg ->", m2(-pos))
