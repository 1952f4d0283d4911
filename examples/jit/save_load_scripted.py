# %%
import os
import tempfile
import warnings

import torch
from torch import nn

# zh: script_vs_trace.py 里展示过的 torch.jit.script 的 DeprecationWarning，这里不再显示
# en: The DeprecationWarning of torch.jit.script, shown in script_vs_trace.py, is silenced here.
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

# %% warns="DeprecationWarning"
x = torch.randn(3, 4, device=device)
with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings(record=True) as caught:
    # zh: 这里把 save 和 load 的弃用警告记录下来
    # en: Record the deprecation warnings of save and load here.
    warnings.simplefilter("always", DeprecationWarning)
    path = os.path.join(tmp, "gate_scripted.pt")
    torch.jit.save(scripted, path)  # zh: 代码和权重存进同一个文件 | en: code + weights in one archive
    loaded = torch.jit.load(path, map_location=device)

for w in caught:
    print(f"{w.category.__name__}: {w.message}")
print("loaded type:", type(loaded).__name__)
print("same output as eager model:", torch.allclose(loaded(x), model(x)))
