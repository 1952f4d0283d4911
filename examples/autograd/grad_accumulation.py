# %%
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print("before any backward, x.grad:", x.grad)
(x * 2).sum().backward()
print("after 1st backward:", x.grad)
(x * 2).sum().backward()
print("after 2nd backward:", x.grad)  # zh: 加到原来的值上 | en: added to the old value

# %%
x.grad.zero_()                        # zh: 就地清零 | en: zero in place
print("after x.grad.zero_():", x.grad)
(x * 2).sum().backward()
print("after 3rd backward:  ", x.grad)
x.grad = None                         # zh: 或者干脆丢掉梯度 | en: or drop the gradient altogether
print("after x.grad = None: ", x.grad)
(x * 2).sum().backward()
print("after 4th backward:  ", x.grad)

# %%
print("type(x.grad):", type(x.grad).__name__, " callable:", callable(x.grad))

# %% raises="TypeError"
x.grad()  # zh: grad 是属性，不是方法 | en: grad is an attribute, not a method
