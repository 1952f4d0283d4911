# %%
import torch

x = torch.tensor(2.0, requires_grad=True)
y = x ** 3  # zh: PowBackward0 为反向传播保存 x | en: PowBackward0 saves x for the backward pass
y.backward(retain_graph=True)
print("after 1st backward: x.grad =", x.grad)
y.backward()  # zh: 可以：图被保留了 | en: allowed: the graph was retained
print("after 2nd backward: x.grad =", x.grad, "(gradients accumulate)")

# %%
x = torch.tensor(2.0, requires_grad=True)
h = x ** 2  # zh: 计算图中共用的部分 | en: shared part of the graph
loss1, loss2 = h * 3, h.sin()
loss1.backward(retain_graph=True)  # zh: 为 loss2 留着 h 保存的张量 | en: keep h's saved tensors for loss2
loss2.backward()
print("two backward calls :", x.grad)

x.grad = None
h = x ** 2
(h * 3 + h.sin()).backward()  # zh: 通常更简单：对总和调用一次 backward | en: usually simpler: one backward on the sum
print("one backward on sum:", x.grad)

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x + 1  # zh: AddBackward0 不保存任何张量 | en: AddBackward0 saves no tensors
y.backward()
y.backward()
print("add-only graph, two backward calls: x.grad =", x.grad)

# %% raises="RuntimeError"
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
y.backward()
y.backward()
