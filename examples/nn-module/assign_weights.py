# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
layer = nn.Linear(3, 2)
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)

new_weight = torch.ones(2, 3)
layer.weight = nn.Parameter(new_weight)
print("layer.weight:", layer.weight)
print("is a Parameter:", isinstance(layer.weight, nn.Parameter))
print("out:", layer(torch.tensor([1.0, 2.0, 3.0])))

# %%
# zh: 优化器手里拿的仍是旧的权重对象
# en: The optimizer still holds the OLD weight object.
print("optimizer sees new weight:", optimizer.param_groups[0]["params"][0] is layer.weight)

# zh: 另一种做法：就地复制数值，Parameter 对象保持不变
# en: Alternative: copy in place, keeping the same Parameter object.
layer2 = nn.Linear(3, 2)
optimizer2 = torch.optim.SGD(layer2.parameters(), lr=0.1)
with torch.no_grad():
    layer2.weight.copy_(new_weight)
print("layer2.weight:", layer2.weight)
print("optimizer2 sees new weight:", optimizer2.param_groups[0]["params"][0] is layer2.weight)

# %%
# zh: 模块的 .to() 就地修改并返回模块自己；张量的 .to() 返回新张量
# en: A module's .to() changes it in place and returns itself; a tensor's .to() returns a new tensor.
weight_before = layer.weight
moved = layer.to(torch.float64)
print("module: returned object is the module:", moved is layer)
print("module: same Parameter object:", layer.weight is weight_before, " dtype now:", layer.weight.dtype)

t = torch.ones(2)
t64 = t.to(torch.float64)
print("tensor: returned object is the tensor:", t64 is t)
print("tensor: original dtype:", t.dtype, " returned dtype:", t64.dtype)

# %%
layer = layer.to(device=device, dtype=torch.float32)  # zh: 搬运每个参数和缓冲区 | en: moves every parameter and buffer
print("device:", layer.weight.device, " dtype:", layer.weight.dtype)
print("out:", layer(torch.ones(1, 3, device=device)))

# %% raises="TypeError"
layer.weight = torch.zeros(2, 3, device=device)  # zh: 普通张量，不是 Parameter | en: a plain tensor, not a Parameter

# %%
# zh: 为什么不用 .data：它绕过自动求导的版本计数，反向传播会悄悄算错
# en: Why not .data: it bypasses autograd's version counter, so backward silently goes wrong.
a = torch.tensor([0.0, 1.0], requires_grad=True)
b = a.sigmoid()  # zh: sigmoid 保存输出 b 用于反向传播 | en: sigmoid saves its output b for backward
b.data.zero_()  # zh: 没人发现这次修改 | en: nobody notices this change
b.sum().backward()
print("grad after b.data.zero_():", a.grad, " correct:", torch.sigmoid(a.detach()) * (1 - torch.sigmoid(a.detach())))

# %% raises="RuntimeError"
# zh: 不用 .data 的同样修改会被版本计数抓住
# en: The same change without .data is caught by the version counter.
a = torch.tensor([0.0, 1.0], requires_grad=True)
b = a.sigmoid()
with torch.no_grad():
    b.zero_()
b.sum().backward()
