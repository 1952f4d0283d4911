# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
labels = torch.tensor([2, 0, 1, 2, 2], device=device)

# zh: scatter_ 是 gather 的反方向：out[i][index[i][j]] = src（dim=1）
# en: scatter_ is gather in reverse: out[i][index[i][j]] = src (dim=1).
one_hot = torch.zeros(len(labels), 3, device=device).scatter_(1, labels.unsqueeze(1), 1.0)
print("one-hot via scatter_:\n", one_hot)
print("same as F.one_hot:", torch.equal(one_hot, torch.nn.functional.one_hot(labels, 3).float()))

# %%
# zh: 再用 gather 按同样的下标取回来，每行都得到 1
# en: gather with the same indices reads them back: a 1 in every row.
print("gather back:", one_hot.gather(1, labels.unsqueeze(1)).squeeze(1).tolist())

# %%
# zh: scatter_add_ 把 src 加到下标处：数每个类别出现了几次
# en: scatter_add_ adds src at the indices: count how often each class occurs.
counts = torch.zeros(3, dtype=torch.long, device=device).scatter_add_(0, labels, torch.ones_like(labels))
print("counts via scatter_add_:", counts.tolist(), " bincount:", torch.bincount(labels, minlength=3).tolist())
assert torch.equal(counts, torch.bincount(labels, minlength=3))
