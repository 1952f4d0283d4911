# %%
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()          # zh: sigmoid 为反向传播保存它的输出 b | en: sigmoid saves its output b for backward
b.sum().backward()
b.add_(1)                # zh: 在 backward 之后修改 b：没问题 | en: changing b AFTER backward is fine
print("a.grad:", a.grad)

# %%
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
c = b + 1                # zh: 非就地：保存的 b 不受影响 | en: out-of-place: the saved b is untouched
c.sum().backward()
print("a.grad:", a.grad)

# %%
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.sigmoid()
print("b._version before add_:", b._version)
b.add_(1)                # zh: 在 backward 之前就地修改 b | en: changing b in place BEFORE backward
print("b._version after add_: ", b._version)

# %% raises="RuntimeError"
b.sum().backward()
