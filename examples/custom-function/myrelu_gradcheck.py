# %%
import warnings

import torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)  # zh: 为 backward 保存 x | en: keep x for backward
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[x < 0] = 0
        return grad_input


# %%
x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
y = MyReLU.apply(x)
y.sum().backward()
print("MyReLU forward :", y.detach())
print("MyReLU grad    :", x.grad)
print("grad_fn        :", type(y.grad_fn).__name__)

x2 = x.detach().clone().requires_grad_()
torch.relu(x2).sum().backward()
print("torch.relu grad:", x2.grad)

# %%
torch.manual_seed(0)
xd = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
print("gradcheck float64:", torch.autograd.gradcheck(MyReLU.apply, (xd,)))

# %%
xf = xd.detach().float().requires_grad_()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ok = torch.autograd.gradcheck(MyReLU.apply, (xf,), raise_exception=False)
print("gradcheck float32:", ok)
print("warning:", str(caught[0].message).strip())

# %%
class BrokenReLU(MyReLU):
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.clone()  # zh: 错误：忘了把 x < 0 的位置置 0 | en: bug: forgets to zero x < 0


ok = torch.autograd.gradcheck(BrokenReLU.apply, (xd,), raise_exception=False)
print("gradcheck BrokenReLU:", ok)
