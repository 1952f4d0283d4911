# %%
import torch

torch.manual_seed(0)


def fn_name(t):
    return None if t.grad_fn is None else t.grad_fn.name()


x = torch.ones(2, 2, requires_grad=True)  # created by the user
w = torch.tensor([1.0, 2.0])              # requires_grad defaults to False
y = x * 3 + 1
out = y.mean()
for name, t in [("x", x), ("w", w), ("y", y), ("out", out)]:
    print(f"{name:>3}: requires_grad={t.requires_grad!s:5}  is_leaf={t.is_leaf!s:5}  grad_fn={fn_name(t)}")
print("y:", y)

# %%
# Walk the graph backwards from `out` to the leaf x.
node = out.grad_fn
while True:
    print("node:", node.name())
    if not node.next_functions:
        break
    node = node.next_functions[0][0]
print("the last node accumulates into x:", node.variable is x)

# %%
t = torch.zeros(3)
t.requires_gradn = True  # misspelled: Python silently adds a new attribute
print("t.requires_gradn:", t.requires_gradn)
print("t.requires_grad: ", t.requires_grad)
t.requires_grad = True   # the real attribute
print("after t.requires_grad = True:", t.requires_grad)

# %%
# The notes' snippet (prints labelled)
a = torch.randn(2, 2)
a = ((a * 3) / (a - 1))
print("a.requires_grad:", a.requires_grad)  # False
a.requires_grad_(True)
print("a.requires_grad:", a.requires_grad)  # True
b = (a * a).sum()
print("b.requires_grad:", b.requires_grad)  # True
print("a.is_leaf:", a.is_leaf, " b.is_leaf:", b.is_leaf, " b.grad_fn:", b.grad_fn.name())

# %% raises="RuntimeError"
b.requires_grad_(False)
print(b.requires_grad) #runtime err
