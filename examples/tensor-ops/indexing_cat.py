# %%
import torch

tensor = torch.ones(4, 4)
tensor[:, 1] = 0  # zh: 所有行的第 1 列 | en: every row, column 1
print(tensor)

# %%
m = torch.arange(12).reshape(3, 4)
print("m:\n", m)
print("m[0]      :", m[0])
print("m[:, -1]  :", m[:, -1])
print("m[1:, :2] :\n", m[1:, :2])
print("m[m > 8]  :", m[m > 8])

# %%
a = torch.zeros(2, 3)
b = torch.ones(2, 3)
print("cat dim=0:", torch.cat([a, b], dim=0).shape)
print("cat dim=1:", torch.cat([a, b], dim=1).shape)
print(torch.cat([a, b, a], dim=1))

# %%
one = m[1, 2]
print("m[1, 2]       :", one, "shape:", one.shape)
print("m[1, 2].item():", one.item(), type(one.item()))
print("m[0].tolist() :", m[0].tolist(), type(m[0].tolist()))

# %%
m = torch.arange(12).reshape(3, 4).clone()  # zh: clone：m 拥有自己的存储 | en: clone: m owns its storage
s = m[1:, :2]  # zh: 切片：视图 | en: a slice: a view
mask = m[m > 8]  # zh: 布尔掩码：高级索引 | en: a boolean mask: advanced indexing
rows = m[[0, 2]]  # zh: 整数列表：高级索引 | en: a list of indices: advanced indexing
for name, t in [("m[1:, :2]", s), ("m[m > 8]", mask), ("m[[0, 2]]", rows)]:
    same = t.untyped_storage().data_ptr() == m.untyped_storage().data_ptr()
    print(f"{name:10} _base is m: {t._base is m!s:5}  shares m's storage: {same}")
print("s.data_ptr() - m.data_ptr():", s.data_ptr() - m.data_ptr(), "bytes = 4 int64 elements in")

s[0, 0] = -1  # zh: 写入视图，m 跟着变 | en: writing into the view changes m
rows[0, 0] = -2  # zh: 写入拷贝，m 不变 | en: writing into the copy leaves m alone
print("m after s[0, 0] = -1 and rows[0, 0] = -2:\n", m)
