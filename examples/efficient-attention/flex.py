# %%
import time

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

B, n_head, S, hd = 1, 4, 1024, 32
q, k, v = (torch.randn(B, n_head, S, hd, device=device) for _ in range(3))
WINDOW = 256
# zh: 三篇文档首尾相接，打包成一条长 1024 的序列
# en: Three documents packed end to end into one sequence of 1024.
doc_lengths = torch.tensor([300, 500, 224], device=device)
doc_id = torch.repeat_interleave(torch.arange(3, device=device), doc_lengths)


# zh: mask_mod：给出查询位置和键位置，回答“能不能看”
# en: A mask_mod: given a query position and a key position, answer "may it attend?".
def causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def sliding_window(b, h, q_idx, kv_idx):
    return (q_idx >= kv_idx) & (q_idx - kv_idx < WINDOW)


def document(b, h, q_idx, kv_idx):
    return (doc_id[q_idx] == doc_id[kv_idx]) & (q_idx >= kv_idx)  # zh: 同一篇文档内的因果注意力 | en: causal within one document


# zh: 同一个函数作用在广播的下标网格上，就得到 SDPA 要的稠密 (S, S) 布尔掩码
# en: The same function applied to a broadcast grid of indices gives the dense (S, S) boolean mask SDPA wants.
q_idx, kv_idx = torch.arange(S, device=device)[:, None], torch.arange(S, device=device)[None, :]
mask_mods = {"causal": causal, "sliding window": sliding_window, "document": document}
dense = {name: fn(0, 0, q_idx, kv_idx) for name, fn in mask_mods.items()}
print({name: tuple(m.shape) for name, m in dense.items()})

# %%
# zh: 块掩码：按 128×128 的块记录哪些块全空（跳过）、全满、部分可见
# en: A block mask records, per 128×128 block, whether it is empty (skipped), full or partial.
block_masks = {name: create_block_mask(fn, B=None, H=None, Q_LEN=S, KV_LEN=S, device=device)
               for name, fn in mask_mods.items()}
print(block_masks["sliding window"])


def block_counts(bm):
    total = (S // bm.BLOCK_SIZE[0]) * (S // bm.BLOCK_SIZE[1])
    partial, full = bm.kv_num_blocks.sum().item(), bm.full_kv_num_blocks.sum().item()
    return total, full, partial, total - full - partial


print("mask             blocks  full  partial  skipped  sparsity()")
for name, bm in block_masks.items():
    total, full, partial, skipped = block_counts(bm)
    print(f"{name:15s}  {total:6d}  {full:4d}  {partial:7d}  {skipped:7d}  {bm.sparsity():9.2f}%")

# %% warns="UserWarning"
# zh: 在 CPU 上直接调用（没有 torch.compile）：走参考实现，算出完整的分数矩阵
# en: Called directly (no torch.compile): the reference implementation, which computes the full score matrix.
out = flex_attention(q, k, v, block_mask=block_masks["causal"])
print("causal vs is_causal=True:", f"{(out - F.scaled_dot_product_attention(q, k, v, is_causal=True)).abs().max().item():.1e}")

# %%
# zh: 每种掩码都和 SDPA 加上等价的稠密掩码比较
# en: Every mask against SDPA with the equivalent dense mask.
outs = {}
for name, bm in block_masks.items():
    outs[name] = flex_attention(q, k, v, block_mask=bm)
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=dense[name])
    print(f"{name:15s} max abs difference to SDPA with the dense mask {(outs[name] - ref).abs().max().item():.1e}")
# zh: 打包的文档互不干扰：第二篇文档的输出和单独计算它时一样
# en: Packed documents do not leak into each other: the second document's outputs equal computing it alone.
s, e = 300, 800
alone = F.scaled_dot_product_attention(q[:, :, s:e], k[:, :, s:e], v[:, :, s:e], is_causal=True)
print(f"document 2 alone vs packed: {(outs['document'][:, :, s:e] - alone).abs().max().item():.1e}")

# %% caption="The three masks (yellow: may attend), with the 128×128 blocks of the block mask" caption_zh="三种掩码（黄色：可以关注），以及块掩码的 128×128 分块和各自跳过的块的比例"
fig, axes = plt.subplots(1, 3, figsize=(10, 3.6))
for ax, (name, m) in zip(axes, dense.items(), strict=True):
    ax.imshow(m.cpu(), cmap="viridis", interpolation="nearest")
    ax.set_xticks(range(0, S + 1, 256))
    ax.set_yticks(range(0, S + 1, 256))
    ax.set_xticks(range(0, S + 1, 128), minor=True)
    ax.set_yticks(range(0, S + 1, 128), minor=True)
    ax.grid(which="minor", color="white", linewidth=0.5)
    ax.set_title(f"{name}: {block_masks[name].sparsity():.0f}% of blocks skipped", fontsize=10)
    ax.set_xlabel("key position")
axes[0].set_ylabel("query position")
plt.tight_layout()
plt.show()


# %% volatile=true
def timeit(fn, repeat=5):
    fn()
    if device == "cuda":
        torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        if device == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return min(times)


print(f"flex_attention, no mask:         {timeit(lambda: flex_attention(q, k, v)) * 1e3:7.2f} ms")
for name, bm in block_masks.items():
    print(f"flex_attention, {name + ':':15s}  {timeit(lambda bm=bm: flex_attention(q, k, v, block_mask=bm)) * 1e3:7.2f} ms")
print(f"SDPA, is_causal=True:            {timeit(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)) * 1e3:7.2f} ms")
