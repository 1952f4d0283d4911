# %%
import torch

# torch.Tensor is the class; calling it with data always gives the default dtype.
print("torch.Tensor([1, 2]):", torch.Tensor([1, 2]), torch.Tensor([1, 2]).dtype)
# torch.tensor is a function that infers the dtype from the data.
print("torch.tensor([1, 2]):", torch.tensor([1, 2]), torch.tensor([1, 2]).dtype)
print("default dtype:", torch.get_default_dtype())

# %%
# Integers passed to torch.Tensor are read as a SHAPE, and the memory is uninitialised.
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
