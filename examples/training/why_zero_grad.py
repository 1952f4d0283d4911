# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(4, 2), torch.randn(4, 1)


def compute_loss():
    return nn.functional.mse_loss(model(x), y)


compute_loss().backward()
g1 = model.weight.grad.clone()
compute_loss().backward()  # zh: 中间没有 zero_grad | en: no zero_grad in between
print("after 1 backward:", g1)
print("after 2 backward:", model.weight.grad)
print("doubled:", torch.allclose(model.weight.grad, 2 * g1))

# %%
optimizer.zero_grad()  # zh: 默认 set_to_none=True：梯度变成 None | en: set_to_none=True by default: grads become None
print("after zero_grad:", model.weight.grad)
compute_loss().backward()
print("fresh gradient equals g1:", torch.allclose(model.weight.grad, g1))

# %%
# zh: 有意的累加：两个半批量的梯度相加，只 step 一次
# en: Deliberate accumulation: sum the gradients of 2 half-batches, then step once.
optimizer.zero_grad()
for xb, yb in [(x[:2], y[:2]), (x[2:], y[2:])]:
    (nn.functional.mse_loss(model(xb), yb) / 2).backward()
print("accumulated equals full batch:", torch.allclose(model.weight.grad, g1))
optimizer.step()  # zh: 用累加的梯度更新一次 | en: one update from the accumulated gradient
print("weight after step:", model.weight.detach())

# %%
# zh: optimizer.zero_grad() 只清它管理的参数；model.zero_grad() 清模型的全部参数
# en: optimizer.zero_grad() clears only the parameters it manages; model.zero_grad() clears all of the model's.
net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
opt_last = torch.optim.SGD(net[1].parameters(), lr=0.1)  # zh: 只管最后一层 | en: manages the last layer only
net(x).sum().backward()
opt_last.zero_grad()
print("after opt_last.zero_grad(): first layer grad is None:", net[0].weight.grad is None)
print("                            last layer grad is None: ", net[1].weight.grad is None)
net.zero_grad()
print("after net.zero_grad():      first layer grad is None:", net[0].weight.grad is None)

# %%
# zh: set_to_none=False 保留梯度张量，只把它填 0
# en: set_to_none=False keeps the gradient tensors and fills them with 0.
net(x).sum().backward()
net.zero_grad(set_to_none=False)
print("set_to_none=False:", net[0].weight.grad)

# %%
# zh: 单个张量没有 zero_grad()：直接清它的 .grad
# en: A bare tensor has no zero_grad(): clear its .grad directly.
w = torch.ones(2, requires_grad=True)
(w * 3).sum().backward()
(w * 3).sum().backward()
print("w.grad:", w.grad)
w.grad.zero_()  # zh: 填 0，保留张量 | en: fill with 0, keep the tensor
print("after w.grad.zero_():", w.grad)
w.grad = None  # zh: 或者整个丢掉 | en: or drop it altogether
print("after w.grad = None:", w.grad)

# %% raises="AttributeError"
w.zero_grad()  # zh: 笔记里的写法 | en: as written in the notes
