# %%
import time

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save


class Attention(nn.Module):
    def __init__(self, C, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(C, 3 * C)
        self.proj = nn.Linear(C, C)

    def forward(self, x, cache=None, mask_prefill=True):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        if cache is not None:
            if "k" in cache:  # zh: 新的 k、v 接在缓存后面 | en: the new k and v go after the cached ones
                k = torch.cat([cache["k"], k], dim=2)
                v = torch.cat([cache["v"], v], dim=2)
            cache["k"], cache["v"] = k, v
        # zh: 不止一个新 token 时要因果掩码；只有一个时，它可以看缓存里的全部
        # en: More than one new token needs the causal mask; a single one may see the whole cache.
        causal = T > 1 and (cache is None or mask_prefill)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, C, n_head):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.attn = Attention(C, n_head)
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))

    def forward(self, x, cache=None, mask_prefill=True):
        x = x + self.attn(self.ln1(x), cache, mask_prefill)
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, V=64, C=64, n_head=4, n_layer=2, block_size=256):
        super().__init__()
        self.tok_emb, self.pos_emb = nn.Embedding(V, C), nn.Embedding(block_size, C)
        self.blocks = nn.ModuleList([Block(C, n_head) for _ in range(n_layer)])
        self.head = nn.Linear(C, V)

    def forward(self, idx, caches=None, mask_prefill=True):
        start = 0 if caches is None or "k" not in caches[0] else caches[0]["k"].size(2)  # zh: 缓存里已有几个位置 | en: positions already cached
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(start, start + idx.size(1), device=idx.device))
        for i, block in enumerate(self.blocks):
            x = block(x, None if caches is None else caches[i], mask_prefill)
        return self.head(x)


model = TinyLM().to(device).eval()
idx = torch.randint(0, 64, (2, 16), device=device)
P = 6  # zh: 提示词的长度 | en: the prompt's length
with torch.no_grad():
    full = model(idx)  # zh: 一次算完所有位置 | en: every position in one pass
    for mask_prefill in [False, True]:
        caches = [{} for _ in model.blocks]
        prefill = model(idx[:, :P], caches, mask_prefill)  # zh: 提示词一次送进去 | en: the whole prompt at once
        steps = torch.cat([model(idx[:, t : t + 1], caches) for t in range(P, idx.size(1))], dim=1)
        print(f"mask_prefill={mask_prefill!s:5s}  prefill vs full pass {(prefill - full[:, :P]).abs().max().item():.1e}"
              f"   decode steps vs full pass {(steps - full[:, P:]).abs().max().item():.1e}")
print("cached k of layer 0:", tuple(caches[0]["k"].shape), " (B, n_head, T, head dim)")


# %%
# zh: 贪心生成：数一数经过模型的位置，以及每一步注意力要算的分数
# en: Greedy generation: count the positions that go through the model and the attention scores of each step.
@torch.no_grad()
def generate(model, prompt, n_new, use_cache):
    caches = [{} for _ in model.blocks] if use_cache else None
    idx, positions, scores = prompt, 0, 0
    logits = model(idx, caches)
    positions, scores = positions + idx.size(1), scores + idx.size(1) ** 2
    for _ in range(n_new):
        nxt = logits[:, -1].argmax(dim=-1, keepdim=True)
        idx = torch.cat([idx, nxt], dim=1)
        inp = nxt if use_cache else idx  # zh: 有缓存时只送新 token | en: with a cache only the new token goes in
        logits = model(inp, caches)
        positions += inp.size(1)
        scores += inp.size(1) * idx.size(1)  # zh: 查询数 × 键数 | en: queries × keys
    return idx, positions, scores


prompt = torch.randint(0, 64, (1, 16), device=device)
results = {}
for use_cache in [False, True]:
    start = time.perf_counter()
    out, positions, scores = generate(model, prompt, 200, use_cache)
    results[use_cache] = (out, time.perf_counter() - start)
    print(f"use_cache={use_cache!s:5s}  positions through the model {positions:6,d}   attention scores per head {scores:9,d}")
print("same tokens:", torch.equal(results[False][0], results[True][0]))

# %% volatile=true
for use_cache, (_, seconds) in results.items():
    print(f"use_cache={use_cache!s:5s}  {seconds:.2f} s")
print(f"speed-up: {results[False][1] / results[True][1]:.1f}x")


# %%
# zh: 缓存的代价是内存：每层存 k 和 v 两个张量，大小随序列长度线性增长
# en: The cache costs memory: two tensors (k and v) per layer, growing linearly with the length.
def kv_cache_bytes(n_layer, batch, n_kv_head, seq_len, head_dim, bytes_per_value):
    return 2 * n_layer * batch * n_kv_head * seq_len * head_dim * bytes_per_value


caches = [{} for _ in model.blocks]
with torch.no_grad():
    model(prompt, caches)
measured = sum(c["k"].nbytes + c["v"].nbytes for c in caches)
print(f"measured {measured:,} bytes, formula {kv_cache_bytes(2, 1, 4, 16, 16, 4):,} bytes")
