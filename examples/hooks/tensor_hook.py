# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
y = x * 2  # zh: 中间结果（非叶子节点），不保留 .grad | en: intermediate (non-leaf) tensor: its .grad is not kept
z = (y ** 2).sum()


def show_grad(grad):
    print("gradient arriving at y:", grad)


handle = y.register_hook(show_grad)
z.backward()
print("y.is_leaf:", y.is_leaf)
print("x.grad:", x.grad)
handle.remove()

# %%
# zh: 钩子可以返回一个新张量，用它替换原梯度
# en: A hook may return a new tensor: it replaces the gradient.
x = torch.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
h = x.register_hook(lambda g: g.clamp(max=5.0))
(x ** 3).sum().backward()
print("3 * x**2         :", 3 * x.detach() ** 2)
print("x.grad (clamped) :", x.grad)

# %%
# zh: handle.remove() 把钩子摘掉
# en: handle.remove() detaches the hook again
h.remove()
x.grad = None
(x ** 3).sum().backward()
print("x.grad after remove:", x.grad)
