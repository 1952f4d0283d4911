# %%
import torch

x = torch.tensor([[1.0, 5.0, 2.0],
                  [4.0, 3.0, 6.0]])
print("x.sum()        :", x.sum())  # zh: 不给 dim：全部元素 | en: no dim: every element
print("x.sum(dim=0)   :", x.sum(dim=0))  # zh: 消掉第 0 维：每列一个 | en: removes dim 0: one per column
print("x.sum(dim=1)   :", x.sum(dim=1))  # zh: 消掉第 1 维：每行一个 | en: removes dim 1: one per row
print("x.mean(dim=-1) :", x.mean(dim=-1))

# %%
# zh: max 给了 dim 时返回 (values, indices)
# en: Given a dim, max returns (values, indices).
values, indices = x.max(dim=1)
print("max(dim=1).values :", values)
print("max(dim=1).indices:", indices)
print("argmax(dim=1)     :", x.argmax(dim=1))
print("argmax() (flat)   :", x.argmax(), "->", x.flatten()[x.argmax()])
print("x.max()           :", x.max())  # zh: 不给 dim 只返回值 | en: no dim: the value only

# %%
# zh: dim 也可以是元组，一次消掉几维
# en: dim may be a tuple, removing several dims at once.
t = torch.arange(24.0).reshape(2, 3, 4)
print("t.sum(dim=(0, 2)):", t.sum(dim=(0, 2)), " shape:", tuple(t.sum(dim=(0, 2)).shape))
print("t.amax(dim=(1, 2)):", t.amax(dim=(1, 2)))
print("t.std(dim=(1, 2)) :", t.std(dim=(1, 2)))

# %%
# zh: keepdim=True 保留被消掉的维度，大小变成 1
# en: keepdim=True keeps each removed dim, with size 1.
print("sum(dim=1)              :", tuple(t.sum(dim=1).shape))
print("sum(dim=1, keepdim=True):", tuple(t.sum(dim=1, keepdim=True).shape))
print("sum(dim=(0, 2), keepdim=True):", tuple(t.sum(dim=(0, 2), keepdim=True).shape))

# %% raises="TypeError"
# zh: max 的 dim 只接受一个整数；几个维度一起取最大值用 amax
# en: max takes a single int dim; for several dims at once use amax.
t.max(dim=(1, 2))
