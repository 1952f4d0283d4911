# %%
import matplotlib.pyplot as plt
import torch

torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = torch.randn(3, requires_grad=True)
y = (a * b + c.exp()).sum()

print("y.grad_fn:", type(y.grad_fn).__name__)
for fn, idx in y.grad_fn.next_functions:
    print("  next:", type(fn).__name__, "input", idx)

# %%
leaf_names = {id(a): "a", id(b): "b", id(c): "c"}


def label(fn):
    name = type(fn).__name__
    if hasattr(fn, "variable"):  # zh: AccumulateGrad 持有它的叶子节点 | en: AccumulateGrad holds its leaf tensor
        name += f" ({leaf_names[id(fn.variable)]})"
    return name


def walk(fn, depth=0):
    print("    " * depth + label(fn))
    for child, _ in fn.next_functions:
        if child is not None:
            walk(child, depth + 1)


walk(y.grad_fn)

# %% caption_zh="y = (a * b + c.exp()).sum() 的自动求导计算图"
pos, edges = {}, []  # zh: 节点 -> (x, y)；(父, 子) 对 | en: node -> (x, y); (parent, child) pairs
n_leaves = 0


def layout(fn, depth=0):
    global n_leaves
    kids = [ch for ch, _ in fn.next_functions if ch is not None]
    xs = [layout(ch, depth + 1) for ch in kids]
    if xs:
        x = sum(xs) / len(xs)  # zh: 父节点居中放在子节点上方 | en: parent centred over its children
    else:
        x = n_leaves  # zh: 叶子节点从左到右排开 | en: leaves left to right
        n_leaves += 1
    pos[fn] = (x, -depth)
    edges.extend((fn, ch) for ch in kids)
    return x


layout(y.grad_fn)
fig, ax = plt.subplots(figsize=(6, 3.5))
for parent, child in edges:  # zh: 箭头沿反向传播的方向 | en: arrows follow the backward pass
    gap = 20 if hasattr(child, "variable") else 12
    ax.annotate("", xy=pos[child], xytext=pos[parent],
                arrowprops=dict(arrowstyle="->", color="gray", shrinkA=12, shrinkB=gap))
for fn, (x, y_) in pos.items():
    leaf = hasattr(fn, "variable")
    ax.text(x, y_, label(fn).replace(" (", "\n("), ha="center", va="center", fontsize=9,
            bbox=dict(boxstyle="round", fc="#d8ecd8" if leaf else "#dde6f5", ec="gray"))
xs = [p[0] for p in pos.values()]
ys = [p[1] for p in pos.values()]
ax.set_xlim(min(xs) - 0.7, max(xs) + 0.7)
ax.set_ylim(min(ys) - 0.5, max(ys) + 0.5)
ax.set_title("Autograd graph of y = (a * b + c.exp()).sum()", fontsize=10)
ax.axis("off")
plt.tight_layout()
plt.show()
