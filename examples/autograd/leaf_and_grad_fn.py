# %%
import torch

torch.manual_seed(0)


def fn_name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


x = torch.ones(2, 2, requires_grad=True)  # zh: 用户创建 | en: created by the user
w = torch.tensor([1.0, 2.0])              # zh: requires_grad 默认为 False | en: requires_grad defaults to False
y = x * 3 + 1
out = y.mean()
for name, t in [("x", x), ("w", w), ("y", y), ("out", out)]:
    print(f"{name:>3}: requires_grad={t.requires_grad!s:5}  is_leaf={t.is_leaf!s:5}  grad_fn={fn_name(t)}")
print("y:", y)

# %%
# zh: 从 out 沿计算图往回走到叶子节点 x
# en: Walk the graph backwards from `out` to the leaf x.
node = out.grad_fn
while True:
    print("node:", node.name())
    if not node.next_functions:
        break
    node = node.next_functions[0][0]
print("the last node accumulates into x:", node.variable is x)

# %%
t = torch.zeros(3)
t.requires_gradn = True  # zh: 拼错了：Python 悄悄加了一个新属性 | en: misspelled: Python silently adds a new attribute
print("t.requires_gradn:", t.requires_gradn)
print("t.requires_grad: ", t.requires_grad)
t.requires_grad = True   # zh: 真正的属性 | en: the real attribute
print("after t.requires_grad = True:", t.requires_grad)

# %%
# zh: 笔记中的代码（print 加了标签）
# en: The notes' snippet (prints labelled).
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print("a.requires_grad:", a.requires_grad)
a.requires_grad_(True)
print("a.requires_grad:", a.requires_grad)
b = (a * a).sum()
print("b.requires_grad:", b.requires_grad)
print("a.is_leaf:", a.is_leaf, " b.is_leaf:", b.is_leaf, " b.grad_fn:", b.grad_fn.name())

# %%
# zh: 非叶子节点总是需要梯度，所以 requires_grad_(True) 不报错，也什么都不改变
# en: A non-leaf always requires grad, so requires_grad_(True) raises nothing and changes nothing.
fn_before = b.grad_fn
print("b.requires_grad_(True) returns b:", b.requires_grad_(True) is b)
print("b.requires_grad:", b.requires_grad, " b.is_leaf:", b.is_leaf, " same grad_fn:", b.grad_fn is fn_before)
# zh: 反过来，不需要梯度的张量一定是叶子节点
# en: Conversely, a tensor that does not require grad is always a leaf.
c = torch.randn(2) * 2
print("c.requires_grad:", c.requires_grad, " c.is_leaf:", c.is_leaf)

# %% raises="RuntimeError"
b.requires_grad_(False)
print(b.requires_grad)  # zh: 笔记把“runtime err”注释写在这一行 | en: the notes put their "runtime err" comment on this line
