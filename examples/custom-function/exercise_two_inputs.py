# %%
import torch


class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(x, y, alpha):
        return alpha * x * y

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, y, alpha = inputs
        ctx.save_for_backward(x, y)
        ctx.alpha = alpha

    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        # zh: 三个输入，三个返回值；alpha 是 Python 数，返回 None
        # en: Three inputs, three return values; alpha is a Python number: None.
        return ctx.alpha * y * grad_output, ctx.alpha * x * grad_output, None


torch.manual_seed(0)
x = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
y = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
print("gradcheck, both inputs:", torch.autograd.gradcheck(lambda a, b: ScaledMul.apply(a, b, 0.5), (x, y)))

ScaledMul.apply(x, y, 0.5).sum().backward()
torch.testing.assert_close(x.grad, 0.5 * y.detach())
torch.testing.assert_close(y.grad, 0.5 * x.detach())
print("x.grad == 0.5 * y and y.grad == 0.5 * x")

# %% raises="RuntimeError"
class ForgetsAlpha(ScaledMul):
    @staticmethod
    def backward(ctx, grad_output):
        x, y = ctx.saved_tensors
        return ctx.alpha * y * grad_output, ctx.alpha * x * grad_output  # zh: 少了一个 | en: one short


ForgetsAlpha.apply(x, y, 0.5).sum().backward()
