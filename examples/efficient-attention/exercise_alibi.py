# %%
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

B, n_head, S, hd = 2, 4, 256, 32
q, k, v = (torch.randn(B, n_head, S, hd, device=device) for _ in range(3))
# zh: ALiBi：每个头一个斜率，分数减去“斜率 × 距离”，越远的键越不受重视
# en: ALiBi: one slope per head; subtract slope × distance from the score, so distant keys count for less.
slopes = 2.0 ** (-8.0 * torch.arange(1, n_head + 1, device=device) / n_head)
print("slopes:", slopes.tolist())


def alibi(score, b, h, q_idx, kv_idx):
    return score - slopes[h] * (q_idx - kv_idx)  # zh: score 已经除过 √d | en: score is already divided by √d


def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


block_mask = create_block_mask(causal, B=None, H=None, Q_LEN=S, KV_LEN=S, device=device)

# %% warns="UserWarning"
out = flex_attention(q, k, v, score_mod=alibi, block_mask=block_mask)

# zh: 同样的偏置写成 SDPA 的浮点 attn_mask：形状 (头数, S, S)，加到缩放后的分数上
# en: The same bias as SDPA's float attn_mask: shape (heads, S, S), added to the scaled scores.
q_idx, kv_idx = torch.arange(S, device=device)[:, None], torch.arange(S, device=device)[None, :]
bias = -slopes[:, None, None] * (q_idx - kv_idx)
bias = bias.masked_fill(q_idx < kv_idx, float("-inf"))
ref = F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
print("bias:", tuple(bias.shape))
print(f"flex_attention with score_mod vs SDPA with the bias: max abs difference {(out - ref).abs().max().item():.1e}")

# %%
# zh: 斜率大的头只看附近：最后一个查询在最近 16 个键上的权重之和
# en: Heads with a large slope look nearby: the weight the last query puts on the nearest 16 keys.
scores = (q @ k.transpose(-2, -1)) / hd**0.5 + bias
weights = scores.softmax(dim=-1)[0, :, -1]
print("weight on the nearest 16 keys, per head:", [round(w, 2) for w in weights[:, -16:].sum(dim=-1).tolist()])
