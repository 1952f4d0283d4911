# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(4, 2), torch.randn(4, 1)


def compute_loss():
    return nn.functional.mse_loss(model(x), y)


compute_loss().backward()
g1 = model.weight.grad.clone()
compute_loss().backward()  # no zero_grad in between
print("after 1 backward:", g1)
print("after 2 backward:", model.weight.grad)
print("doubled:", torch.allclose(model.weight.grad, 2 * g1))

# %%
optimizer.zero_grad()  # set_to_none=True by default: grads become None
print("after zero_grad:", model.weight.grad)
compute_loss().backward()
print("fresh gradient equals g1:", torch.allclose(model.weight.grad, g1))

# %%
# accumulation is deliberate: sum gradients of 2 half-batches, then step once
optimizer.zero_grad()
for xb, yb in [(x[:2], y[:2]), (x[2:], y[2:])]:
    (nn.functional.mse_loss(model(xb), yb) / 2).backward()
print("accumulated equals full batch:", torch.allclose(model.weight.grad, g1))
optimizer.step()  # one update from the accumulated gradient
print("weight after step:", model.weight.data)

# %%
# a bare tensor has no zero_grad(): clear its .grad directly
w = torch.ones(2, requires_grad=True)
(w * 3).sum().backward()
(w * 3).sum().backward()
print("w.grad:", w.grad)
w.grad.zero_()  # or: w.grad = None
print("after w.grad.zero_():", w.grad)

# %% raises="AttributeError"
w.zero_grad()  # as written in the notes
