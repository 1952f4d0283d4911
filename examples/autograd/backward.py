# %%
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = (x ** 2).sum()  # a scalar; d(out)/dx = 2 * x
out.backward()
print("x.grad:", x.grad)

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2            # a vector, same shape as x
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)         # vector-Jacobian product: x.grad = v * dy/dx
print("x.grad:      ", x.grad)
print("v * 2 * x:   ", v * 2 * x.detach())

x2 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x2 ** 2 * v).sum().backward()  # the same thing, via a scalar
print("via (y*v).sum():", x2.grad)

# %% raises="RuntimeError"
x3 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(x3 ** 2).backward()  # non-scalar output, no gradient argument
