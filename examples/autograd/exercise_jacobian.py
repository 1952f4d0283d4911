# %%
import torch

torch.manual_seed(0)
A = torch.randn(3, 4)
x = torch.randn(4, requires_grad=True)


def f(x):
    return A @ x  # zh: 雅可比矩阵就是 A | en: the Jacobian is A itself


# zh: y.backward(v) 算的是 vᵀJ：逐个用单位向量 v 就能拼出 J 的每一行
# en: y.backward(v) computes vᵀJ: one-hot vectors v give J row by row.
rows = []
for i in range(3):
    x.grad = None
    v = torch.zeros(3)
    v[i] = 1.0
    f(x).backward(v)
    rows.append(x.grad.clone())
J = torch.stack(rows)
print("J from backward:\n", J)
torch.testing.assert_close(J, A)
torch.testing.assert_close(J, torch.autograd.functional.jacobian(f, x.detach()))
print("equals A and torch.autograd.functional.jacobian")

# %%
v = torch.tensor([0.5, -1.0, 2.0])
x.grad = None
f(x).backward(v)
print("x.grad:", x.grad)
print("A.T @ v:", A.T @ v)
torch.testing.assert_close(x.grad, A.T @ v)
