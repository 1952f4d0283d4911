# %%
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
scores = torch.tensor([[0.1, 2.5, 0.3],
                       [1.7, 0.2, 0.9]], device=device)
print("scores:\n", scores)
print("torch.argmax(scores):", torch.argmax(scores))  # index into the flattened tensor
print("scores.argmax(dim=1):", scores.argmax(dim=1))   # best column per row
print("scores.argmax(dim=0):", scores.argmax(dim=0))   # best row per column

# %%
print("scores.max():", scores.max())  # no dim: a single value, no index
values, indices = scores.max(dim=1)   # with dim: a (values, indices) pair
print("values :", values)
print("indices:", indices)
best = scores.max(dim=1, keepdim=True)
print("keepdim=True shapes:", best.values.shape, best.indices.shape)

# %%
# torch.max(a, b) with two tensors is an element-wise maximum, not a reduction.
other = torch.ones_like(scores)
print("torch.max(scores, other):\n", torch.max(scores, other))
top2 = scores.topk(2, dim=1)
print("topk(2) values:\n", top2.values)
print("topk(2) indices:\n", top2.indices)
