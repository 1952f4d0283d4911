# %% warns="UserWarning"
import torch

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 乘法的结果：w 不是叶子节点，真正的叶子是 randn(...)
# en: the result of a multiplication: w is not a leaf, the real leaf is randn(...)
w = torch.randn(3, device=device, requires_grad=True) * 0.01
(w * 2).sum().backward()
print(w.is_leaf, w.grad)

# %%
# zh: 先算出初始值，再打开 requires_grad
# en: compute the initial value first, then turn on requires_grad
w = (torch.randn(3, device=device) * 0.01).requires_grad_()
(w * 2).sum().backward()
print(w.is_leaf, w.grad)

# %%
# zh: 或者保留中间结果的梯度：在 backward 之前调用 retain_grad()
# en: or keep an intermediate gradient: call retain_grad() before backward
x = torch.randn(3, device=device, requires_grad=True)
h = x * 0.01
h.retain_grad()
(h * 2).sum().backward()
print(h.is_leaf, h.grad)
