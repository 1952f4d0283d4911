# %%
import torch
from torch import nn

torch.manual_seed(0)
layer = nn.Linear(3, 2)
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
weight_object = layer.weight

W = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]])
with torch.no_grad():  # zh: 改数值而不记录计算图 | en: change values without recording a graph
    layer.weight.copy_(W)
nn.init.zeros_(layer.bias)  # zh: nn.init 同样在 no_grad 下就地修改 | en: nn.init also writes in place under no_grad

x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
expected = x @ W.T  # zh: 偏置为 0 | en: the bias is 0
print("layer(x):", layer(x))
print("x @ W.T: ", expected)
torch.testing.assert_close(layer(x), expected)

# %%
# zh: 同一个 Parameter 对象，仍由优化器管理，仍然需要梯度
# en: The same Parameter object, still managed by the optimizer, still requiring grad.
print("same object:", layer.weight is weight_object)
print("optimizer holds it:", any(p is layer.weight for p in optimizer.param_groups[0]["params"]))
print("requires_grad:", layer.weight.requires_grad, " is leaf:", layer.weight.is_leaf)

layer(x).sum().backward()
optimizer.step()
print("weight after one step moved:", not torch.equal(layer.weight, W))
