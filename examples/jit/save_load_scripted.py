# %%
import os
import tempfile
import warnings

import torch
from torch import nn

# zh: script_vs_trace.py 里展示过的 DeprecationWarning，这里不再显示
# en: the DeprecationWarning shown in script_vs_trace.py is silenced here
warnings.filterwarnings("ignore", category=DeprecationWarning, module="torch.jit")
torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.lin(x)
        if y.mean() > 0:  # zh: script 会保留这个分支 | en: kept by scripting
            y = torch.relu(y)
        return y


model = Gate().to(device).eval()
scripted = torch.jit.script(model)
print(type(scripted).__name__)
print(scripted.code)

# %%
x = torch.randn(3, 4, device=device)
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "gate_scripted.pt")
    scripted.save(path)  # zh: 代码和权重存进同一个文件 | en: code + weights in one archive
    loaded = torch.jit.load(path, map_location=device)

print("loaded type:", type(loaded).__name__)
print("same output as eager model:", torch.allclose(loaded(x), model(x)))
