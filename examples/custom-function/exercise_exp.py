# %%
import torch


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)  # zh: (e^x)' = e^x：保存输出就够了 | en: (e^x)' = e^x: saving the output is enough

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
MyExp.apply(x).sum().backward()
x2 = x.detach().clone().requires_grad_()
torch.exp(x2).sum().backward()
print("MyExp grad    :", x.grad)
print("torch.exp grad:", x2.grad)
torch.testing.assert_close(x.grad, x2.grad)
print("gradcheck:", torch.autograd.gradcheck(MyExp.apply, (x,)))

# %%
# zh: 它还能用在 torch.func 里，因为用的是 setup_context 写法
# en: It also works under torch.func, thanks to the setup_context style.
g = torch.func.grad(lambda t: MyExp.apply(t).sum())(x.detach())
print("torch.func.grad:", g)
torch.testing.assert_close(g, x.detach().exp())
