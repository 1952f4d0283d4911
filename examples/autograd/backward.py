# %%
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = (x ** 2).sum()  # zh: 标量；d(out)/dx = 2 * x | en: a scalar; d(out)/dx = 2 * x
out.backward()
print("x.grad:", x.grad)

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2            # zh: 向量，形状与 x 相同 | en: a vector, same shape as x
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)         # zh: 向量-雅可比积：x.grad = v * dy/dx | en: vector-Jacobian product: x.grad = v * dy/dx
print("x.grad:      ", x.grad)
print("v * 2 * x:   ", v * 2 * x.detach())

x2 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x2 ** 2 * v).sum().backward()  # zh: 同一件事，经由一个标量 | en: the same thing, via a scalar
print("via (y*v).sum():", x2.grad)

# %%
m = torch.ones(2, 3, requires_grad=True)
y = m * 2  # zh: 输出形状为 (2, 3) | en: an output of shape (2, 3)
y.backward(torch.ones(2, 3))  # zh: 形状与 y 相同：可以 | en: the same shape as y: works
print("m.grad:", m.grad)

# %% raises="RuntimeError"
y = m * 2
g = torch.ones(6)
print("g.numel() == y.numel():", g.numel() == y.numel())
y.backward(g)  # zh: 元素个数相同，形状不同：报错 | en: right size, wrong shape: fails

# %% raises="RuntimeError"
x3 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x3 ** 2).backward()  # zh: 非标量输出，没有 gradient 参数 | en: non-scalar output, no gradient argument
