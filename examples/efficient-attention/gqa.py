# %%
import torch
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: 8 个查询头，只有 2 个键/值头：每 4 个查询头共用一组 k、v
# en: 8 query heads but only 2 key/value heads: every 4 query heads share one k and v.
B, T, hd = 2, 16, 32
n_head, n_kv_head = 8, 2
group = n_head // n_kv_head
q = torch.randn(B, n_head, T, hd, device=device)
k = torch.randn(B, n_kv_head, T, hd, device=device)
v = torch.randn(B, n_kv_head, T, hd, device=device)
print("q:", tuple(q.shape), " k, v:", tuple(k.shape))
print("query head -> kv head:", [h // group for h in range(n_head)])

# %%
# zh: 手写：把每个 k、v 头重复 group 次，变回普通的多头注意力
# en: By hand: repeat each k and v head group times, which turns it back into ordinary multi-head attention.
k_rep = k.repeat_interleave(group, dim=1)
v_rep = v.repeat_interleave(group, dim=1)
by_hand = F.scaled_dot_product_attention(q, k_rep, v_rep, is_causal=True)
# zh: enable_gqa=True：同样的结果，不用真的复制 k、v
# en: enable_gqa=True: the same result without materialising the copies.
gqa = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
print("k repeated:", tuple(k_rep.shape))
print("enable_gqa equals repeat_interleave:", torch.allclose(gqa, by_hand, atol=1e-6),
      f" max abs difference {(gqa - by_hand).abs().max().item():.1e}")
# zh: 陷阱：repeat 是整体平铺（0,1,0,1,...），分组方式不对
# en: A trap: repeat tiles the heads (0,1,0,1,...), which is the wrong grouping.
tiled = F.scaled_dot_product_attention(q, k.repeat(1, group, 1, 1), v.repeat(1, group, 1, 1), is_causal=True)
print("enable_gqa equals repeat:", torch.allclose(gqa, tiled, atol=1e-6))

# %% raises="RuntimeError"
# zh: 不写 enable_gqa，头数对不上就报错
# en: Without enable_gqa, mismatched head counts are an error.
F.scaled_dot_product_attention(q, k, v, is_causal=True)

# %%
# zh: 投影层的参数：k、v 的投影随 kv 头数变小
# en: Projection parameters: the k and v projections shrink with the number of kv heads.
C = n_head * hd
print("              kv heads  q, k, v projection parameters")
for name, kv in [("MHA", n_head), ("GQA", n_kv_head), ("MQA", 1)]:
    print(f"{name:12s}  {kv:8d}  {C * C + 2 * C * kv * hd:12,d}")


# %%
# zh: KV 缓存的大小：2（k 和 v）× 层数 × 批量 × kv 头数 × 长度 × 头维数 × 每个数的字节数
# en: KV cache size: 2 (k and v) × layers × batch × kv heads × length × head dim × bytes per value.
def kv_cache_bytes(n_layer, batch, n_kv_head, seq_len, head_dim, bytes_per_value):
    return 2 * n_layer * batch * n_kv_head * seq_len * head_dim * bytes_per_value


print("check against real tensors:", kv_cache_bytes(1, B, n_kv_head, T, hd, 4) == k.nbytes + v.nbytes)
# zh: 一个 7B/8B 规模的配置：32 层、32 个查询头、头维数 128，bfloat16，上下文 8192
# en: A 7B/8B-sized configuration: 32 layers, 32 query heads of width 128, bfloat16, a context of 8192.
for name, kv in [("MHA", 32), ("GQA", 8), ("MQA", 1)]:
    size = kv_cache_bytes(32, 1, kv, 8192, 128, 2)
    print(f"{name}  {kv:2d} kv heads  {size / 2**30:6.3f} GiB per sequence")
