# %%
import torch

torch.manual_seed(0)
q = torch.randn(2, 3, 4)  # zh: (批量 B, 长度 T, 维度 D) | en: (batch B, length T, dim D)
k = torch.randn(2, 3, 4)
print("q:", tuple(q.shape), " k:", tuple(k.shape))

# %% raises="RuntimeError"
# zh: 想算注意力分数 (B, T, T)，却忘了转置 k
# en: Meant to compute the attention scores (B, T, T), but forgot to transpose k.
torch.bmm(q, k)

# %%
# zh: 批量大小不同也是这条报错；@ 则按广播规则报错
# en: Different batch sizes give this message too; @ reports them as a broadcasting error.
a, b = torch.randn(2, 3, 4), torch.randn(3, 4, 5)
for name, f in [("bmm", torch.bmm), ("@  ", torch.matmul)]:
    try:
        f(a, b)
    except RuntimeError as e:
        print(f"{name} (2, 3, 4) x (3, 4, 5): {e}")

# %%
# zh: 改法：第二个张量的形状应是 (B, D, T)
# en: The fix: the second tensor must be (B, D, T).
scores = torch.bmm(q, k.transpose(1, 2))
print("bmm(q, k.transpose(1, 2)):", tuple(scores.shape))
print("same as q @ k.mT:", torch.allclose(scores, q @ k.mT))
