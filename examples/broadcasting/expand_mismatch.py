# %%
import torch

col = torch.tensor([[1.0], [2.0]])  # zh: 形状 (2, 1) | en: shape (2, 1)
print(col.expand(2, 3))  # zh: 大小为 1 的维度可以拉伸 | en: a dim of size 1 stretches
print("col.expand(-1, 3):", tuple(col.expand(-1, 3).shape))  # zh: -1 表示这一维不变 | en: -1 keeps that dim
x = torch.zeros(2, 4)
print("x.expand(2, 4)   :", tuple(x.expand(2, 4).shape))  # zh: 大小不是 1 的维度只能保持原样 | en: a dim not of size 1 can only stay as it is

# %% raises="RuntimeError"
x.expand(2, 3)

# %% raises="RuntimeError"
# zh: 给切片赋值时，右边也要 expand 成切片的形状，报的是同一个错
# en: Assigning into a slice expands the right-hand side to the slice's shape: the same error.
out = torch.zeros(2, 3)
new = torch.ones(2, 4)
out[:] = new

# %%
# zh: 先弄清哪个形状才对；想要前 3 列就切片，想按行或按列填充就给出大小为 1 的维度
# en: Decide which shape is right: slice if you meant the first 3 columns, give a dim of size 1 to fill by row or column.
out[:] = new[:, :3]
print(out)
out[:] = torch.tensor([[10.0], [20.0]])  # zh: (2, 1) 沿列拉伸 | en: (2, 1) stretches along the columns
print(out)
