# %%
import torch


def same_storage(a, b):  # zh: 比较底层存储的起始地址 | en: compare where the underlying storages start
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


x = torch.arange(6)
v = x.view(2, 3)
print("v:\n", v)
v[0, 0] = 100  # zh: 视图与 x 共享存储 | en: a view shares storage with x
print("x after writing v[0, 0]:", x)
print("view shares storage   :", same_storage(v, x))
print("reshape shares storage:", same_storage(x.reshape(3, 2), x))

# %%
x = torch.arange(6).view(2, 3)
xt = x.t()  # zh: 转置：步长对调的视图 | en: transpose: a view with swapped strides
print("x.stride():", x.stride(), " contiguous:", x.is_contiguous())
print("xt.stride():", xt.stride(), "contiguous:", xt.is_contiguous())

print("xt.view(3, 2, 1):", xt.view(3, 2, 1).shape)

r = xt.reshape(6)  # zh: 必要时 reshape 会复制 | en: reshape copies when it has to
print("xt.reshape(6):", r)
print("reshape copied:", not same_storage(r, xt))
print("xt.contiguous().view(6):", xt.contiguous().view(6))

# %%
s = torch.arange(6).view(2, 3)
print("before t_():", s.shape)
s.t_()  # zh: 就地操作：s 本身被转置 | en: in place: s itself is now transposed
print("after  t_():", s.shape)
print(s)

z = torch.zeros(2, 3, 4)  # zh: t() 只用于一维和二维张量 | en: t() is for 1-D and 2-D tensors only
print("z.transpose(1, 2):", z.transpose(1, 2).shape, " z.mT:", z.mT.shape)

# %% raises="RuntimeError"
x = torch.arange(6).view(2, 3)
flat = x.t().view(6)
