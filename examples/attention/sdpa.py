# %%
import math

import torch
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

B, T, d = 2, 5, 8  # zh: 批量、序列长度、每个向量的维数 | en: batch, sequence length, vector width
q = torch.randn(B, T, d, device=device)
k = torch.randn(B, T, d, device=device)
v = torch.randn(B, T, d, device=device)


def attention(q, k, v):
    # zh: 每个查询和每个键的点积：(B, T, d) @ (B, d, T) -> (B, T, T)
    # en: Every query dotted with every key: (B, T, d) @ (B, d, T) -> (B, T, T).
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    weights = scores.softmax(dim=-1)  # zh: 每一行和为 1 | en: each row sums to 1
    return weights @ v, weights  # zh: (B, T, T) @ (B, T, d) -> (B, T, d) | en: (B, T, T) @ (B, T, d) -> (B, T, d)


out, weights = attention(q, k, v)
print("weights:", tuple(weights.shape), " out:", tuple(out.shape))
print("row sums of weights[0]:", weights[0].sum(dim=-1))

# %%
# zh: 和 PyTorch 的实现比较
# en: Compare with PyTorch's implementation.
ref = F.scaled_dot_product_attention(q, k, v)
print("allclose:", torch.allclose(out, ref, atol=1e-5))
print(f"max abs difference: {(out - ref).abs().max().item():.1e}")

# %%
# zh: 每个输出都是 v 各行的加权平均，权重就是 weights 的一行
# en: Each output is a weighted average of the rows of v, with one row of weights as the weights.
manual = sum(weights[0, 2, j] * v[0, j] for j in range(T))
print("out[0, 2]          :", out[0, 2, :4])
print("sum_j w[2, j] * v[j]:", manual[:4])

# %%
# zh: 打乱输入的顺序，输出只是跟着同样打乱：注意力本身不知道位置
# en: Shuffle the inputs and the outputs are shuffled the same way: attention itself knows no positions.
perm = torch.tensor([3, 0, 4, 1, 2], device=device)
out_perm, _ = attention(q[:, perm], k[:, perm], v[:, perm])
print("attention(shuffled inputs) == shuffled outputs:", torch.allclose(out_perm, out[:, perm], atol=1e-5))
