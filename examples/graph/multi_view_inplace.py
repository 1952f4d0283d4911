# %%
import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
a, b = x.unbind(0)  # zh: 一次调用返回两个视图 | en: one call returns two views
print("a:", a.detach(), " a._base is x:", a._base is x)
print("a.grad_fn:", a.grad_fn.name(), "| one node for a and b:", a.grad_fn is b.grad_fn)
# zh: 遍历张量的每一行也是 unbind
# en: Iterating over a tensor's rows is unbind too.
print("for row in x:", [row.grad_fn.name() for row in x])
print("split, chunk:", x.split(1)[0].grad_fn.name(), x.chunk(2)[0].grad_fn.name())

# %% raises="RuntimeError"
a += 1

# %%
# zh: 修法一：不就地修改，得到新张量
# en: Fix 1: change it out of place, which makes a new tensor.
a1 = a + 1
# zh: 修法二：先 clone，再对副本就地修改
# en: Fix 2: clone first, then change the copy in place.
b1 = b.clone()
b1 += 1
print("a + 1:", a1.detach(), a1.grad_fn.name())
print("clone, += 1:", b1.detach(), b1.grad_fn.name())
torch.stack([a1, b1 * 10]).sum().backward()  # zh: 梯度照常流回 x | en: gradients reach x as usual
print("x.grad:", x.grad)

# %%
# zh: 没有自动求导时，同样的代码可以运行，并且改动了 x
# en: Without autograd the same code runs, and it changes x.
t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
a, b = t.unbind(0)
a += 1
print("t after a += 1:", t)
