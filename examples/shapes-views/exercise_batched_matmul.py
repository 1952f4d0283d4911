# %%
import torch

torch.manual_seed(0)
B, T, D, E = 2, 5, 4, 3
q = torch.randn(B, T, D)
k = torch.randn(B, T, D)

# zh: 注意力分数：每个批量里 q 的每一行和 k 的每一行做点积，得到 (B, T, T)
# en: Attention scores: in each batch, every row of q dotted with every row of k, giving (B, T, T).
scores = q @ k.transpose(-2, -1)
print("scores:", tuple(scores.shape))

loops = torch.stack([torch.stack([torch.stack([q[b, i] @ k[b, j] for j in range(T)]) for i in range(T)])
                     for b in range(B)])
torch.testing.assert_close(scores, loops)
torch.testing.assert_close(scores, torch.bmm(q, k.mT))
torch.testing.assert_close(scores, torch.einsum("btd,bsd->bts", q, k))
print("@, bmm, einsum and the loops agree")

# %%
# zh: (B, T, D) @ (D, E)：权重矩阵广播到每个批量，等价于先展平再 mm
# en: (B, T, D) @ (D, E): the weight broadcasts over the batch, the same as flattening and using mm.
W = torch.randn(D, E)
out = q @ W
flat = torch.mm(q.reshape(B * T, D), W).reshape(B, T, E)
torch.testing.assert_close(out, flat)
print("q @ W:", tuple(out.shape), " matches mm on the flattened batch")
