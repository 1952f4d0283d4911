# %%
import torch

# zh: 规则 1：从最后一维开始对齐；规则 2：大小为 1 的维度可以拉伸
# en: Rule 1: align the trailing dims; rule 2: a dim of size 1 stretches.
col = torch.tensor([[0], [10], [20]])  # zh: 形状 (3, 1) | en: shape (3, 1)
row = torch.tensor([[1, 2, 3, 4]])  # zh: 形状 (1, 4) | en: shape (1, 4)
print("col.shape:", tuple(col.shape), " row.shape:", tuple(row.shape))
print("col + row ->", tuple((col + row).shape))
print(col + row)

# %%
# zh: 规则 3：缺少的前导维度当作 1
# en: Rule 3: missing leading dims count as 1.
m = torch.arange(12).reshape(3, 4)
v = torch.tensor([100, 200, 300, 400])  # zh: (4,) 看作 (1, 4) | en: (4,) is treated as (1, 4)
print("m + v ->", tuple((m + v).shape))
print(m + v)

# %%
# zh: 不需要真的算，就能问出结果的形状
# en: Ask for the result's shape without computing anything.
print(torch.broadcast_shapes((3, 1), (1, 4)))
print(torch.broadcast_shapes((2, 1, 4), (3, 1)))
print(torch.broadcast_shapes((5, 3, 1, 2), (4, 1), (2,)))

# %%
# zh: 拉伸并不复制数据：expand 得到步长为 0 的视图
# en: Stretching copies nothing: expand gives a view with stride 0.
e = col.expand(3, 4)
print("expanded:", tuple(e.shape), " stride:", e.stride())
print("same storage as col:", e.data_ptr() == col.data_ptr())
