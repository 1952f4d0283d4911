# %%
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: 新 token 有 4 个、缓存里已有 4 个时，两种因果掩码（True 表示“可以看”）
# en: Two causal masks when 4 new tokens join 4 cached ones (True means "may attend").
T_new, S = 4, 8
print("is_causal=True (upper left):")
print(torch.ones(T_new, S, dtype=torch.bool).tril().int())
print("lower right: tril(S - T_new)")
print(torch.ones(T_new, S, dtype=torch.bool).tril(S - T_new).int())


# %%
class CachedAttention(nn.Module):
    def __init__(self, C, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(C, 3 * C)

    def forward(self, x, cache, lower_right):
        B, T, C = x.shape
        q, k, v = (t.view(B, T, self.n_head, -1).transpose(1, 2) for t in self.qkv(x).split(C, dim=-1))
        if "k" in cache:
            k, v = torch.cat([cache["k"], k], dim=2), torch.cat([cache["v"], v], dim=2)
        cache["k"], cache["v"] = k, v
        if T == 1:
            return F.scaled_dot_product_attention(q, k, v)
        if lower_right:  # zh: 对齐右下角：新 token 看得到整个缓存 | en: aligned bottom right: the new tokens see the whole cache
            S = k.size(2)
            return F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, S, dtype=torch.bool, device=x.device).tril(S - T))
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)


attn = CachedAttention(32, 4).to(device)
x = torch.randn(2, 12, 32, device=device)  # zh: 12 个 token 的提示词 | en: a 12-token prompt
with torch.no_grad():
    full = attn(x, {}, lower_right=True)  # zh: 缓存为空：两种掩码相同 | en: empty cache: both masks agree
    for lower_right in [False, True]:
        cache = {}
        # zh: 分块预填充：每次送 4 个 token
        # en: Chunked prefill: 4 tokens at a time.
        chunks = torch.cat([attn(x[:, i : i + 4], cache, lower_right) for i in range(0, 12, 4)], dim=2)
        diff = (chunks - full).abs().amax(dim=(0, 1, 3))  # zh: 每个位置的最大差 | en: largest difference per position
        print(f"lower_right={lower_right!s:5s}  per position:", " ".join(f"{d:.0e}" for d in diff.tolist()))
