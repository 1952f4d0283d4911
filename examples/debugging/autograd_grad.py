# %%
import torch

torch.manual_seed(0)
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x**3).sum()

# torch.autograd.grad returns the gradients instead of adding them to x.grad
(dy_dx,) = torch.autograd.grad(y, x)
print("dy/dx =", dy_dx, " expected 3x² =", 3 * x.detach() ** 2)
print("x.grad is still", x.grad)

# %%
# create_graph=True records the backward pass too, so the gradient can be differentiated again
y = (x**3).sum()
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx   =", dy_dx)
(d2y_dx2,) = torch.autograd.grad(dy_dx.sum(), x)
print("d²y/dx² =", d2y_dx2, " expected 6x =", 6 * x.detach())

# %% raises="RuntimeError"
# without create_graph the first gradient has no graph of its own
y = (x**3).sum()
(dy_dx,) = torch.autograd.grad(y, x)
torch.autograd.grad(dy_dx.sum(), x)

# %%
# gradient with respect to the input of a model, e.g. for a gradient penalty
model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
inputs = torch.randn(4, 3, requires_grad=True)
(g,) = torch.autograd.grad(model(inputs).sum(), inputs, create_graph=True)
penalty = ((g.norm(dim=1) - 1) ** 2).mean()
penalty.backward()  # reaches the model's parameters through the gradient
print("input gradient shape:", tuple(g.shape))
print("penalty:", round(penalty.item(), 4), " first layer weight has grad:", model[0].weight.grad is not None)
