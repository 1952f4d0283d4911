# %%
import torch
import torch.nn.functional as F


class MyLeakyReLU(torch.autograd.Function):
    generate_vmap_rule = True  # zh: 让 torch.func.vmap 能自动批量化 | en: lets torch.func.vmap batch it

    @staticmethod
    def forward(x, slope):  # zh: 这里没有 ctx | en: no ctx here
        return torch.where(x > 0, x, x * slope)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, slope = inputs
        ctx.save_for_backward(x)  # zh: 张量：save_for_backward | en: tensors: save_for_backward
        ctx.slope = slope  # zh: 普通 Python 值：ctx 的属性 | en: plain Python values: ctx attributes

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_x = torch.where(x > 0, grad_output, grad_output * ctx.slope)
        return grad_x, None  # zh: forward 的每个输入一个梯度；slope 给 None | en: one gradient per forward input; None for slope


# %%
torch.manual_seed(0)
x = torch.randn(6, dtype=torch.float64, requires_grad=True)
MyLeakyReLU.apply(x, 0.1).sum().backward()
print("MyLeakyReLU grad:", x.grad)

x2 = x.detach().clone().requires_grad_()
F.leaky_relu(x2, 0.1).sum().backward()
print("F.leaky_relu grad:", x2.grad)
print("gradcheck:", torch.autograd.gradcheck(lambda t: MyLeakyReLU.apply(t, 0.1), (x,)))

# %%
def f(t):
    return MyLeakyReLU.apply(t, 0.1).sum()


print("torch.func.grad:", torch.func.grad(f)(x.detach()))
print("torch.func.vmap, one sum per row:", torch.func.vmap(f)(x.detach().view(3, 2)))

# %% raises="RuntimeError"
class OldStyleReLU(torch.autograd.Function):  # zh: 和笔记一样的 forward(ctx, ...) | en: forward(ctx, ...) as in the notes
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x >= 0)


g = torch.func.grad(lambda t: OldStyleReLU.apply(t).sum())(x.detach())
