# %%
import torch

# zh: 一个样本的 logits，没有批量维：形状 (3,)
# en: The logits of one sample, with no batch dim: shape (3,).
logits = torch.tensor([2.0, 1.0, 0.1])
print("shape:", tuple(logits.shape), " ndim:", logits.ndim)

# %% raises="IndexError"
torch.softmax(logits, dim=1)  # zh: 照抄批量代码里的 dim=1 | en: dim=1 copied from batched code

# %%
# zh: 合法的 dim 是 -ndim 到 ndim - 1；sum、argmax 等也一样
# en: Valid dims run from -ndim to ndim - 1; sum, argmax and the rest are no different.
for shape, dim in [((3,), 1), ((4, 3), 2)]:
    try:
        torch.zeros(shape).sum(dim=dim)
    except IndexError as e:
        print(f"{shape}.sum(dim={dim}): {e}")

# %%
# zh: 改法：dim=-1 对 (3,) 和 (N, 3) 都指最后一维；或者补上批量维
# en: Fixes: dim=-1 means the last dim for (3,) and (N, 3) alike; or add the batch dim.
print("softmax(dim=-1)            :", torch.softmax(logits, dim=-1))
print("batch of 2, softmax(dim=-1):", tuple(torch.softmax(torch.stack([logits, logits]), dim=-1).shape))
print("unsqueeze(0), softmax(dim=1):", torch.softmax(logits.unsqueeze(0), dim=1))
