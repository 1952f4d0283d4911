# %%
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

C, n_head, T, W = 32, 4, 64, 16  # zh: W：窗口大小，每个位置只看最近的 W 个位置 | en: W: the window; each position sees the last W only
qkv = nn.Linear(C, 3 * C).to(device)
x = torch.randn(1, T, C, device=device)


def split(x):
    return (t.view(x.size(0), x.size(1), n_head, -1).transpose(1, 2) for t in qkv(x).split(C, dim=-1))


# zh: 参考：一次算完整段，用稠密的滑动窗口掩码
# en: Reference: the whole sequence in one pass, with a dense sliding-window mask.
i, j = torch.arange(T, device=device)[:, None], torch.arange(T, device=device)[None, :]
window = (j <= i) & (i - j < W)
with torch.no_grad():
    q, k, v = split(x)
    full = F.scaled_dot_product_attention(q, k, v, attn_mask=window)

# %%
# zh: 逐个生成：缓存只留最近 W 个 k、v，更早的丢掉
# en: One token at a time: the cache keeps the last W keys and values and drops the older ones.
cache_k = cache_v = None
outs, sizes = [], []
with torch.no_grad():
    for t in range(T):
        q, k, v = split(x[:, t : t + 1])
        cache_k = k if cache_k is None else torch.cat([cache_k, k], dim=2)[:, :, -W:]
        cache_v = v if cache_v is None else torch.cat([cache_v, v], dim=2)[:, :, -W:]
        outs.append(F.scaled_dot_product_attention(q, cache_k, cache_v))
        sizes.append(cache_k.size(2))
rolling = torch.cat(outs, dim=2)
print("cache length at steps 1, 8, 16, 17, 64:", [sizes[s - 1] for s in (1, 8, 16, 17, 64)])
print(f"rolling cache vs full pass with the window mask: max abs difference {(rolling - full).abs().max().item():.1e}")
print(f"cache memory: {2 * cache_k.nbytes:,} bytes instead of {2 * cache_k.nbytes * T // W:,} for all {T} positions")
