# %%
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3 + 2 * x  # zh: dy/dx = 3 * x**2 + 2，在 x = 2 处等于 14 | en: dy/dx = 3 * x**2 + 2, which is 14 at x = 2
y.backward()
print("dy/dx at x = 2:", x.grad)

# %%
def f(x):
    return x ** 3 + 2 * x


for h in [1e-1, 1e-2, 1e-3]:
    print(f"finite difference, h = {h:g}: {(f(2.0 + h) - f(2.0)) / h:.6f}")
print("autograd:", x.grad.item())
