# %%
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
loss = (w * w).sum()
loss.backward()
with torch.no_grad():
    w -= 0.1 * w.grad  # zh: 在 backward 之后修改值：没问题 | en: after backward: changing values is fine
print("w after the update:", w)

# %%
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
d = b * b  # zh: MulBackward0 为反向传播保存 b | en: MulBackward0 saves b for the backward pass
print("b._version before add_:", b._version)
b.add_(1)  # zh: 在 backward 之前：修改了被保存的张量 | en: before backward: changes a saved tensor
print("b._version after add_ :", b._version)

# %% raises="RuntimeError"
d.sum().backward()
