# %%
import time

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save


class CausalSelfAttention(nn.Module):
    def __init__(self, C, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(C, 3 * C)
        self.proj = nn.Linear(C, C)

    def forward(self, x, cache=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        if cache is None:  # zh: 整段重算，需要因果掩码 | en: full recompute needs the causal mask
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            # zh: 把新 token 的 k、v 接到缓存后面
            # en: Append the new tokens' k and v to the cache.
            if "k" in cache:
                k = torch.cat([cache["k"], k], dim=2)
                v = torch.cat([cache["v"], v], dim=2)
            cache["k"], cache["v"] = k, v
            # zh: 一个新 token 可以看缓存里的全部；一次送进几个（提示词的预填充，这里缓存还是空的）时，它们之间仍需因果掩码
            # en: One new token may see the whole cache; several at once (the prompt's prefill, here into an empty cache) still need the causal mask.
            y = F.scaled_dot_product_attention(q, k, v, is_causal=T > 1)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, C, n_head):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.attn = CausalSelfAttention(C, n_head)
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))

    def forward(self, x, cache=None):
        x = x + self.attn(self.ln1(x), cache)
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, V=50, C=32, n_head=4, n_layer=2, block_size=32):
        super().__init__()
        self.tok_emb, self.pos_emb = nn.Embedding(V, C), nn.Embedding(block_size, C)
        self.blocks = nn.ModuleList([Block(C, n_head) for _ in range(n_layer)])
        self.head = nn.Linear(C, V)

    def forward(self, idx, start=0, caches=None):
        # zh: start 是第一个输入 token 的位置
        # en: start is the position of the first input token.
        pos = torch.arange(start, start + idx.size(1), device=idx.device)
        x = self.tok_emb(idx) + self.pos_emb(pos)
        for i, block in enumerate(self.blocks):
            x = block(x, None if caches is None else caches[i])
        return self.head(x)


model = TinyLM().to(device).eval()
idx = torch.randint(0, 50, (2, 12), device=device)

with torch.no_grad():
    full = model(idx)  # zh: 一次算完所有位置：(B, T, V) | en: every position at once: (B, T, V)
    caches = [{} for _ in model.blocks]
    P = 5
    prefill = model(idx[:, :P], caches=caches)  # zh: 前 P 个 token 一次送进去：预填充 | en: the first P tokens in one go: the prefill
    steps = [model(idx[:, t : t + 1], start=t, caches=caches) for t in range(P, idx.size(1))]  # zh: 之后每次一个 | en: then one at a time
incremental = torch.cat([prefill, *steps], dim=1)
print("full:", tuple(full.shape), " incremental:", tuple(incremental.shape))
print(f"prefill of {P} tokens vs full pass: max abs difference {(prefill - full[:, :P]).abs().max().item():.1e}")
print(f"one token at a time vs full pass: max abs difference {(torch.cat(steps, dim=1) - full[:, P:]).abs().max().item():.1e}")
print("allclose:", torch.allclose(full, incremental, atol=1e-5))
print("cached k in layer 0:", tuple(caches[0]["k"].shape))

# %%
# zh: 贪心生成 n 个 token：不用缓存时每一步都把整个前缀重算一遍
# en: Greedy generation of n tokens: without a cache every step recomputes the whole prefix.
@torch.no_grad()
def generate(model, idx, n, use_cache):
    caches = [{} for _ in model.blocks] if use_cache else None
    logits, processed = model(idx, caches=caches), idx.size(1)
    for _ in range(n):
        nxt = logits[:, -1].argmax(dim=-1, keepdim=True)
        idx = torch.cat([idx, nxt], dim=1)
        if use_cache:
            logits = model(nxt, start=idx.size(1) - 1, caches=caches)  # zh: 只算新 token | en: the new token only
        else:
            logits = model(idx)
        processed += logits.size(1)  # zh: 这一步经过模型的位置数 | en: positions through the model this step
    return idx, processed


model = TinyLM(block_size=128).to(device).eval()
prompt = torch.randint(0, 50, (1, 4), device=device)
results = {}
for use_cache in [False, True]:
    start = time.perf_counter()
    out, processed = generate(model, prompt, 100, use_cache)
    results[use_cache] = (out, processed, time.perf_counter() - start)
    print(f"use_cache={use_cache!s:5s}  positions processed: {processed}")
print("same tokens:", torch.equal(results[False][0], results[True][0]))

# %% volatile=true
for use_cache, (_, _, seconds) in results.items():
    print(f"use_cache={use_cache!s:5s}  {seconds:.2f} s")
