# %%
import torch

torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
y = (a * a + a.exp()).sum()  # zh: a 被用了三次 | en: a is used three times


# zh: 像树一样遍历：数一数走到 a 的 AccumulateGrad 有几条路径
# en: Walk it like a tree: count the paths that reach a's AccumulateGrad.
def paths_to_leaf(fn):
    if fn is None:
        return 0
    if getattr(fn, "variable", None) is a:
        return 1
    return sum(paths_to_leaf(child) for child, _ in fn.next_functions)


# zh: 把每个节点对象只记一次
# en: Record each node object only once.
def distinct_nodes(fn, seen):
    if fn is not None and fn not in seen:
        seen.add(fn)
        for child, _ in fn.next_functions:
            distinct_nodes(child, seen)
    return seen


leaves = [n for n in distinct_nodes(y.grad_fn, set()) if hasattr(n, "variable")]
print("paths from y to a's AccumulateGrad:", paths_to_leaf(y.grad_fn))
print("distinct AccumulateGrad nodes:", len(leaves))
assert paths_to_leaf(y.grad_fn) == 3 and len(leaves) == 1

# %%
# zh: 三条路径的梯度在同一个节点里相加：2a + e^a
# en: The three paths' gradients add up in that one node: 2a + e^a.
y.backward()
predicted = 2 * a.detach() + a.detach().exp()
print("a.grad:   ", a.grad)
print("predicted:", predicted)
torch.testing.assert_close(a.grad, predicted)
