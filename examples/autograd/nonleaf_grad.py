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

# %% raises="AttributeError"
# zh: backward 之前 .grad 还是 None，None 没有 zero_()
# en: Before any backward, .grad is still None, and None has no zero_().
p = torch.randn(3, device=device, requires_grad=True)
print("before backward:", p.grad)
p.grad.zero_()

# %%
# zh: 用优化器清零：参数还没有梯度也不会出错，默认把 .grad 设为 None（set_to_none=True）
# en: Zero through the optimizer: no error for a parameter without a gradient yet; by default .grad becomes None (set_to_none=True).
optimizer = torch.optim.SGD([p], lr=0.1)
optimizer.zero_grad()
(p * 2).sum().backward()
print("after backward:", p.grad)
optimizer.zero_grad()
print("after zero_grad():", p.grad)
