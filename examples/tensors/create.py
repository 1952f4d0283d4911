# %%
import numpy as np
import torch

torch.manual_seed(0)

# zh: torch.empty 只分配内存，里面的值是这块内存原有的内容
# en: torch.empty only allocates memory: its values are whatever was there before.
e = torch.empty(7, 19)
print("empty  shape:", e.shape, "dtype:", e.dtype)

z = torch.zeros(2, 3, dtype=torch.long)
print("zeros:\n", z)
print("zeros dtype:", z.dtype)

# %%
r = torch.rand(2, 3)    # zh: [0, 1) 上的均匀分布 | en: uniform on [0, 1)
n = torch.randn(2, 3)   # zh: 标准正态分布：均值 0，标准差 1 | en: standard normal: mean 0, std 1
print("rand:\n", r)
print("randn:\n", n)

# %%
t = torch.tensor([[1.0, 3.8, 2.1], [8.6, 4.0, 2.4]])
print("tensor:\n", t)
print("dtype from [7.0, 19]:", torch.tensor([7.0, 19]).dtype)
print("dtype from [1, 2]:   ", torch.tensor([1, 2]).dtype)
print("dtype from [True]:   ", torch.tensor([True]).dtype)

# %%
a = np.array([[1.0, 3.8, 2.1], [8.6, 4.0, 2.4]])
shared = torch.from_numpy(a)  # zh: 与数组共享内存 | en: shares memory with the array
copied = torch.tensor(a)      # zh: 复制数据 | en: copies the data
print("numpy dtype:", a.dtype, "-> tensor dtype:", shared.dtype)
a[0, 0] = -1.0
print("after a[0, 0] = -1:")
print("  from_numpy[0, 0]:", shared[0, 0].item())
print("  tensor[0, 0]:    ", copied[0, 0].item())
