# %%
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3  # PowBackward0 saves x for the backward pass
y.backward(retain_graph=True)
print("after 1st backward: x.grad =", x.grad)
y.backward()  # allowed: the graph was retained
print("after 2nd backward: x.grad =", x.grad, "(gradients accumulate)")

# %%
x = torch.tensor(2.0, requires_grad=True)
h = x ** 2  # shared part of the graph
loss1, loss2 = h * 3, h.sin()
loss1.backward(retain_graph=True)  # keep h's saved tensors for loss2
loss2.backward()
print("two backward calls :", x.grad)

x.grad = None
h = x ** 2
(h * 3 + h.sin()).backward()  # usually simpler: one backward on the sum
print("one backward on sum:", x.grad)

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x + 1  # AddBackward0 saves no tensors
y.backward()
y.backward()
print("add-only graph, two backward calls: x.grad =", x.grad)

# %% raises="RuntimeError"
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
y.backward()
y.backward()
