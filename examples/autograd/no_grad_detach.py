# %%
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
print("y.requires_grad:", y.requires_grad, " y.grad_fn:", y.grad_fn.name())
with torch.no_grad():
    z = x * 2
    print("inside no_grad, grad enabled:", torch.is_grad_enabled())
print("z.requires_grad:", z.requires_grad, " z.grad_fn:", z.grad_fn)
print("after the block, grad enabled:", torch.is_grad_enabled())

# %%
d = y.detach()
print("d.requires_grad:", d.requires_grad, " d.is_leaf:", d.is_leaf)
print("d shares y's memory:", d.data_ptr() == y.data_ptr())
d[0] = 100.0
print("y after d[0] = 100:", y)

# %%
# zh: 一步梯度下降，和笔记中的训练循环一样
# en: One gradient-descent step, as in the notes' training loop.
loss = (x ** 2).sum()
loss.backward()
with torch.no_grad():
    x -= 0.1 * x.grad   # zh: 就地更新叶子节点：不被记录 | en: in-place update of a leaf: not recorded
x.grad.zero_()
print("x after one step:", x)

# %% raises="RuntimeError"
loss = (x ** 2).sum()
loss.backward()
x -= 0.1 * x.grad       # zh: 同样的更新，但在 no_grad 之外 | en: same update, but outside no_grad
