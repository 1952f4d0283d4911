# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
scores = torch.tensor([[0.1, 2.5, 0.3],
                       [1.7, 0.2, 0.9]], device=device)
print("scores:\n", scores)
print("torch.argmax(scores):", torch.argmax(scores))  # zh: 展平之后的下标 | en: index into the flattened tensor
print("scores.argmax(dim=1):", scores.argmax(dim=1))   # zh: 每行最大值所在的列 | en: best column per row
print("scores.argmax(dim=0):", scores.argmax(dim=0))   # zh: 每列最大值所在的行 | en: best row per column

# %%
print("scores.max():", scores.max())  # zh: 不给 dim：只返回一个值，没有下标 | en: no dim: a single value, no index
values, indices = scores.max(dim=1)   # zh: 给了 dim：返回 (values, indices) | en: with dim: a (values, indices) pair
print("values :", values)
print("indices:", indices)
best = scores.max(dim=1, keepdim=True)
print("keepdim=True shapes:", best.values.shape, best.indices.shape)

# %%
# zh: 传入两个张量时，torch.max(a, b) 逐元素取最大值，不是归约
# en: torch.max(a, b) with two tensors is an element-wise maximum, not a reduction.
other = torch.ones_like(scores)
print("torch.max(scores, other):\n", torch.max(scores, other))
top2 = scores.topk(2, dim=1)
print("topk(2) values:\n", top2.values)
print("topk(2) indices:\n", top2.indices)
