# %%
import torch

# zh: torch.Tensor 是类，用数据调用它，总是得到默认浮点类型
# en: torch.Tensor is the class; calling it with data always gives the default dtype.
print("torch.Tensor([1, 2]):", torch.Tensor([1, 2]), torch.Tensor([1, 2]).dtype)
# zh: torch.tensor 是函数，按数据推断 dtype
# en: torch.tensor is a function that infers the dtype from the data.
print("torch.tensor([1, 2]):", torch.tensor([1, 2]), torch.tensor([1, 2]).dtype)
print("default dtype:", torch.get_default_dtype())

# %%
# zh: 传给 torch.Tensor 的整数被当作形状，内存不初始化
# en: Integers passed to torch.Tensor are read as a SHAPE, and the memory is uninitialised.
u = torch.Tensor(2, 3)
print("torch.Tensor(2, 3) shape:", u.shape, "dtype:", u.dtype)
v = torch.Tensor(3)
print("torch.Tensor(3)    shape:", v.shape)
s = torch.tensor(3)
print("torch.tensor(3):", s, "shape:", s.shape, "dim:", s.dim())

# %%
print("torch.Tensor is a class:   ", isinstance(torch.Tensor, type))
print("torch.tensor is a class:   ", isinstance(torch.tensor, type))
print("result is a torch.Tensor:  ", isinstance(torch.tensor([1, 2]), torch.Tensor))
