# %%
import numpy as np
import torch

t = torch.ones(3)
a = t.numpy()  # tensor -> ndarray, no copy
t.add_(1)
print("after t.add_(1):  t =", t, " a =", a)
a[0] = 100
print("after a[0] = 100: t =", t, " a =", a)

# %%
b = np.zeros(3)
s = torch.from_numpy(b)  # ndarray -> tensor, no copy
np.add(b, 5, out=b)
print("after np.add(b, 5, out=b): s =", s)
s[1] = -1
print("after s[1] = -1:           b =", b)
print("dtype kept:", b.dtype, "->", s.dtype)

# %%
c = np.zeros(3)
copied = torch.tensor(c)  # always copies
shared = torch.as_tensor(c)  # shares when it can
c[:] = 7
print("torch.tensor(c)   :", copied)
print("torch.as_tensor(c):", shared)

# %%
t = torch.zeros(3)
a = t.numpy()
t = t + 1  # out of place: a new tensor, the name t is rebound
print("t =", t, " a =", a)

# %%
import importlib.metadata

deps = importlib.metadata.requires("torch")
print("torch's requirements mentioning numpy:", [d for d in deps if "numpy" in d])
