# %%
import torch
from torch import nn

torch.manual_seed(0)


class ListMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4) for _ in range(3)]  # zh: 普通 Python 列表 | en: a plain Python list

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


class ModuleListMLP(nn.Module):
    def __init__(self):
        super().__init__()
        # zh: nn.ModuleList 登记每个子模块
        # en: nn.ModuleList registers each submodule.
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


for cls in (ListMLP, ModuleListMLP):
    model = cls()
    n = sum(p.numel() for p in model.parameters())
    print(f"{cls.__name__:14s} parameters: {n:3d}  state_dict keys: {list(model.state_dict())[:2]}")

# %%
# zh: 后果：优化器拿到的参数是空的，列表里的层也不会跟着 .to() 改变
# en: Consequences: the optimizer gets no parameters, and .to() skips the layers in the list.
broken, fixed = ListMLP(), ModuleListMLP()
print("fixed: optimizer tensors:", len(torch.optim.SGD(fixed.parameters(), lr=0.1).param_groups[0]["params"]))
broken.to(torch.float64)
print("list layer dtype after .to(float64):", broken.layers[0].weight.dtype)
fixed.to(torch.float64)
print("ModuleList layer dtype after .to(float64):", fixed.layers[0].weight.dtype)

# %% raises="ValueError"
torch.optim.SGD(broken.parameters(), lr=0.1)  # zh: 没有任何参数 | en: no parameters at all
