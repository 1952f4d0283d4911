# %%
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
dtype = torch.float64  # zh: 用 float64 比较 | en: compare in float64
C, H = 2, 3
lengths = torch.tensor([4, 1, 6, 3])  # zh: 长度留在 CPU 上 | en: lengths stay on the CPU
seqs = [torch.randn(n, C, dtype=dtype, device=device) for n in lengths.tolist()]

# zh: pad_sequence 用 0 把每条序列补到最长的长度
# en: pad_sequence pads every sequence with 0 up to the longest length.
padded = pad_sequence(seqs, batch_first=True)
print("padded:", tuple(padded.shape), " lengths:", lengths.tolist())
print("sequence 1 (length 1), padded:\n", padded[1])

# %%
gru = nn.GRU(C, H, batch_first=True, dtype=dtype, device=device)
with torch.no_grad():
    # zh: 参照答案：每条序列单独跑，不补齐
    # en: The reference: each sequence on its own, no padding.
    alone = torch.cat([gru(s.unsqueeze(0))[1][0] for s in seqs])
    # zh: 直接把补齐的批量交给 GRU：短序列在补上的 0 上继续往前走
    # en: The padded batch as is: short sequences keep stepping over the padded zeros.
    _, h_naive = gru(padded)
diff = (h_naive[0] - alone).abs().amax(dim=1)
print("naive padded run, |h_n - alone| per sequence:", [f"{d:.2e}" for d in diff.tolist()])

# %%
# zh: 打包：enforce_sorted=False 允许长度不按降序排列
# en: Packing: enforce_sorted=False accepts lengths in any order.
packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
print("packed.data:", tuple(packed.data.shape), " = total length", lengths.sum().item())
print("batch_sizes:", packed.batch_sizes.tolist(), " (how many sequences are still running at each step)")
print("sorted_indices:", packed.sorted_indices.tolist())

with torch.no_grad():
    out_packed, h_packed = gru(packed)
print("packed run, h_n equals running each sequence alone:", torch.allclose(h_packed[0], alone))
print(f"max |h_n - alone|: {(h_packed[0] - alone).abs().max().item():.1e}")

# %%
# zh: pad_packed_sequence 把输出还原成补齐的张量，补齐的位置是 0
# en: pad_packed_sequence turns the output back into a padded tensor, with 0 at the padded positions.
out, out_lengths = pad_packed_sequence(out_packed, batch_first=True)
print("output:", tuple(out.shape), " lengths:", out_lengths.tolist())
with torch.no_grad():
    same = all(torch.allclose(out[i, :n], gru(s.unsqueeze(0))[0][0])
               for i, (s, n) in enumerate(zip(seqs, lengths, strict=True)))
print("every real step matches the lone run:", same)
print("padded positions are all zero:", all((out[i, n:] == 0).all().item() for i, n in enumerate(lengths)))

# %%
# zh: 双向时更严重：不打包，反向的那一半从补上的 0 开始读
# en: Worse with two directions: unpacked, the backward half starts reading at the padding.
bi = nn.GRU(C, H, batch_first=True, bidirectional=True, dtype=dtype, device=device)
with torch.no_grad():
    alone = torch.cat([bi(s.unsqueeze(0))[1].transpose(0, 1) for s in seqs])  # zh: (N, 2, H) | en: (N, 2, H)
    h_naive = bi(padded)[1].transpose(0, 1)
    h_packed = bi(pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False))[1].transpose(0, 1)
for name, d in [("forward", 0), ("backward", 1)]:
    err = (h_naive[:, d] - alone[:, d]).abs().amax(dim=1)
    print(f"naive {name:8s} |h_n - alone|:", [f"{e:.2e}" for e in err.tolist()])
print("packed bidirectional equals alone:", torch.allclose(h_packed, alone))
