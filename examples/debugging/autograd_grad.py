# %%
import torch

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x**3).sum()

# zh: torch.autograd.grad 直接返回梯度，而不是累加到 x.grad
# en: torch.autograd.grad returns the gradients instead of adding them to x.grad
(dy_dx,) = torch.autograd.grad(y, x)
print("dy/dx =", dy_dx, " expected 3x² =", 3 * x.detach() ** 2)
print("x.grad is still", x.grad)

# %%
# zh: create_graph=True 把反向传播也记录进计算图，梯度还能再求导
# en: create_graph=True records the backward pass too, so the gradient can be differentiated again
y = (x**3).sum()
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx   =", dy_dx)
(d2y_dx2,) = torch.autograd.grad(dy_dx.sum(), x)
print("d²y/dx² =", d2y_dx2, " expected 6x =", 6 * x.detach())

# %% raises="RuntimeError"
# zh: 不加 create_graph，一阶梯度没有自己的计算图
# en: without create_graph the first gradient has no graph of its own
y = (x**3).sum()
(dy_dx,) = torch.autograd.grad(y, x)
torch.autograd.grad(dy_dx.sum(), x)

# %%
# zh: 对模型输入求梯度，比如用于梯度惩罚
# en: gradient with respect to the input of a model, e.g. for a gradient penalty
model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
inputs = torch.randn(4, 3, requires_grad=True)
(g,) = torch.autograd.grad(model(inputs).sum(), inputs, create_graph=True)
penalty = ((g.norm(dim=1) - 1) ** 2).mean()
penalty.backward()  # zh: 通过梯度传到模型的参数 | en: reaches the model's parameters through the gradient
print("input gradient shape:", tuple(g.shape))
print("penalty:", round(penalty.item(), 4), " first layer weight has grad:", model[0].weight.grad is not None)
