# %%
import numpy as np
import torch

t = torch.ones(3)
a = t.numpy()  # zh: 张量 -> 数组，不复制 | en: tensor -> ndarray, no copy
t.add_(1)
print("after t.add_(1):  t =", t, " a =", a)
a[0] = 100
print("after a[0] = 100: t =", t, " a =", a)

# %%
b = np.zeros(3)
s = torch.from_numpy(b)  # zh: 数组 -> 张量，不复制 | en: ndarray -> tensor, no copy
np.add(b, 5, out=b)
print("after np.add(b, 5, out=b): s =", s)
s[1] = -1
print("after s[1] = -1:           b =", b)
print("dtype kept:", b.dtype, "->", s.dtype)

# %%
c = np.zeros(3)
copied = torch.tensor(c)  # zh: 总是复制 | en: always copies
shared = torch.as_tensor(c)  # zh: 能共享时就共享 | en: shares when it can
c[:] = 7
print("torch.tensor(c)   :", copied)
print("torch.as_tensor(c):", shared)

# %%
t = torch.zeros(3)
a = t.numpy()
t = t + 1  # zh: 非就地：生成新张量，名字 t 被重新绑定 | en: out of place: a new tensor, the name t is rebound
print("t =", t, " a =", a)
