# %%
import torch

torch.manual_seed(0)
a = torch.randn(5, 3)  # zh: 5 个三维点 | en: 5 points in 3-D
b = torch.randn(4, 3)  # zh: 4 个三维点 | en: 4 points in 3-D

# zh: (5, 1, 3) - (1, 4, 3) -> (5, 4, 3)，再沿最后一维归约
# en: (5, 1, 3) - (1, 4, 3) -> (5, 4, 3), then reduce the last dim.
diff = a[:, None, :] - b[None, :, :]
dist = diff.pow(2).sum(dim=-1).sqrt()
print("diff:", tuple(diff.shape), " dist:", tuple(dist.shape))

# %%
# zh: 和两重循环、和 torch.cdist 比较
# en: Compare with two loops and with torch.cdist.
loops = torch.tensor([[(a[i] - b[j]).norm().item() for j in range(4)] for i in range(5)])
torch.testing.assert_close(dist, loops)
torch.testing.assert_close(dist, torch.cdist(a, b))
print("matches the loops and torch.cdist")
print("nearest b for each a:", dist.argmin(dim=1).tolist())
