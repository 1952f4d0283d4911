# %%
import torch


def f(x):
    return x[0] ** 2 * x[1] + x[1] ** 3


x = torch.tensor([1.0, 2.0], requires_grad=True)
(grad,) = torch.autograd.grad(f(x), x, create_graph=True)
# zh: Hessian 的第 i 行是 grad[i] 的梯度
# en: row i of the Hessian is the gradient of grad[i]
rows = [torch.autograd.grad(grad[i], x, retain_graph=True)[0] for i in range(2)]
hessian = torch.stack(rows)
print("gradient:", grad.detach())
print("Hessian:\n", hessian)

# zh: 手算：在 (1, 2) 处为 [[2*x1, 2*x0], [2*x0, 6*x1]]
# en: by hand: [[2*x1, 2*x0], [2*x0, 6*x1]] at (1, 2)
expected = torch.tensor([[4.0, 2.0], [2.0, 12.0]])
torch.testing.assert_close(hessian, expected)
torch.testing.assert_close(torch.autograd.functional.hessian(f, x.detach()), expected)
print("matches the hand-computed Hessian and torch.autograd.functional.hessian")
