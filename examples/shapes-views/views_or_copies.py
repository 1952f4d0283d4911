# %%
import torch


def same_storage(a, b):
    # zh: 比较底层存储的起始地址；切片的 data_ptr() 有偏移，不能直接比
    # en: Compare the start of the underlying storage; a slice's data_ptr() is offset, so compare storages.
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


x = torch.randn(3, 4)  # zh: x 自己拥有存储，不是视图 | en: x owns its storage; it is not a view
s = x[1:, 1:]
print("x[1:, 1:] data_ptr equal:", s.data_ptr() == x.data_ptr(), " same storage:", same_storage(s, x))
print("x._base:", x._base, " s._base is x:", s._base is x)
# zh: 视图的视图，_base 仍指向拥有存储的那个张量
# en: A view of a view still has _base pointing at the tensor that owns the storage.
print("x.view(4, 3).t()._base is x:", x.view(4, 3).t()._base is x)
# zh: detach() 共享存储，却没有 _base：自动求导不把它记成视图
# en: detach() shares the storage but has no _base: autograd does not record it as a view.
d = x.detach()
print("x.detach() same storage:", same_storage(d, x), " x.detach()._base:", d._base)

# %%
xt = x.t()
ops = {
    "x[1:, ::2]": lambda: x[1:, ::2],
    "x.view(4, 3)": lambda: x.view(4, 3),
    "x.reshape(2, 6)": lambda: x.reshape(2, 6),
    "x.t()": lambda: x.t(),
    "x.permute(1, 0)": lambda: x.permute(1, 0),
    "x.unsqueeze(0)": lambda: x.unsqueeze(0),
    "x[None].squeeze(0)": lambda: x[None].squeeze(0),
    "x.flatten()": lambda: x.flatten(),
    "x.expand(2, 3, 4)": lambda: x.expand(2, 3, 4),
    "x.detach()": lambda: x.detach(),
    "x[[0, 2]]": lambda: x[[0, 2]],
    "x[x > 0]": lambda: x[x > 0],
    "xt.reshape(12)": lambda: xt.reshape(12),
    "xt.contiguous()": lambda: xt.contiguous(),
    "x.clone()": lambda: x.clone(),
    "x.double()": lambda: x.double(),
    "x.long()": lambda: x.long(),
}
for name, op in ops.items():
    y = op()
    print(f"{name:18} {'view' if same_storage(y, x) else 'copy'}")

# %%
# zh: 写入视图会改到原张量，写入拷贝不会
# en: Writing into a view changes the original; writing into a copy does not.
x = torch.zeros(2, 3)
x.t()[0, 1] = 1.0  # zh: 视图 | en: a view
x[[0]][0, 0] = 7.0  # zh: 高级索引得到拷贝，写进了临时张量 | en: advanced indexing copies; this writes a temporary
print(x)

# %%
# zh: 类型转换要换类型时才复制；类型已经对了，.float() 返回张量本身
# en: A dtype conversion copies only when the dtype changes; if it already matches, .float() returns the tensor itself.
i = torch.arange(3)
print("int64 .float() same storage:", same_storage(i.float(), i))
f = torch.ones(2)
print("float32 .float() is f:", f.float() is f)
