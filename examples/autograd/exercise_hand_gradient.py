# %%
import torch


# zh: f(x, y) = x² · y + x · e^y
# zh: 手算：∂f/∂x = 2xy + e^y，∂f/∂y = x² + x · e^y
# en: f(x, y) = x² · y + x · e^y
# en: By hand: ∂f/∂x = 2xy + e^y, ∂f/∂y = x² + x · e^y.
def f(x, y):
    return x ** 2 * y + x * torch.exp(y)


torch.manual_seed(0)
x = torch.randn(4, dtype=torch.float64, requires_grad=True)
y = torch.randn(4, dtype=torch.float64, requires_grad=True)
f(x, y).sum().backward()

with torch.no_grad():
    dx_hand = 2 * x * y + torch.exp(y)
    dy_hand = x ** 2 + x * torch.exp(y)
print("x.grad :", x.grad)
print("by hand:", dx_hand)
print("y.grad :", y.grad)
print("by hand:", dy_hand)
torch.testing.assert_close(x.grad, dx_hand)
torch.testing.assert_close(y.grad, dy_hand)

# %%
# zh: gradcheck 用有限差分再核对一次（输入要用 float64）
# en: gradcheck checks once more with finite differences (float64 inputs).
print("gradcheck:", torch.autograd.gradcheck(f, (x, y)))
