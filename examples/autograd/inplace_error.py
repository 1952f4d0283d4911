# %%
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()          # sigmoid saves its output b for backward
b.sum().backward()
b.add_(1)                # changing b AFTER backward is fine
print("a.grad:", a.grad)

# %%
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
c = b + 1                # out-of-place: the saved b is untouched
c.sum().backward()
print("a.grad:", a.grad)

# %%
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
print("b._version before add_:", b._version)
b.add_(1)                # changing b in place BEFORE backward
print("b._version after add_: ", b._version)

# %% raises="RuntimeError"
b.sum().backward()
