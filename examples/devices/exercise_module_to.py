# %%
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
net = nn.Linear(3, 2)
t = torch.ones(3)

# zh: 模块的 .to() 就地修改并返回模块自身
# en: A module's .to() works in place and returns the module itself.
assert net.to(device) is net
assert net.to(torch.float64) is net
assert all(p.dtype == torch.float64 and p.device.type == device for p in net.parameters())
print("module: .to() returned the same object; parameters are", net.weight.dtype, "on", net.weight.device.type)

# %%
# zh: 张量的 .to() 要改变时返回新张量，原张量不变
# en: A tensor's .to() returns a new tensor when something changes, and leaves the original alone.
t64 = t.to(torch.float64)
assert t64 is not t and t.dtype == torch.float32
assert t.to(torch.float32) is t  # zh: 没有要改的：返回本身 | en: nothing to change: itself
print("tensor: .to(float64) gave a new", t64.dtype, "tensor; t is still", t.dtype)
