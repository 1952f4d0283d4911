# %%
import torch


def f(x, n):
    y = x
    for _ in range(n):  # zh: Python 循环：每转一圈一个 MulBackward0 节点 | en: a Python loop: one MulBackward0 node per turn
        y = y * 2
    if y.sum() > 0:  # zh: Python 的 if：每次调用可能选不同的运算 | en: a Python if: picks a different op per call
        return y.exp().sum()
    return y.abs().sum()


# zh: 从 t 回到叶子节点的 grad_fn 名字（只走第一个输入）
# en: grad_fn names from t back to a leaf (first parent only).
def chain(t):
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(type(fn).__name__)
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


# %%
x = torch.tensor([0.5, 1.0], requires_grad=True)
out = f(x, 1)
print("f(x, 1):", " <- ".join(chain(out)))
out = f(-x, 3)
print("f(-x, 3):", " <- ".join(chain(out)))

# %%
torch.manual_seed(0)
a = torch.randn(2, requires_grad=True)
b = a * 2
c = torch.randn(2) * 2  # zh: 没有输入需要梯度：什么都不记录 | en: no input requires grad: nothing is recorded
print("a: is_leaf", a.is_leaf, " grad_fn", a.grad_fn)
print("b: is_leaf", b.is_leaf, "grad_fn", type(b.grad_fn).__name__)
print("c: is_leaf", c.is_leaf, " grad_fn", c.grad_fn)
print("a.grad_fn is None:", a.grad_fn is None)
