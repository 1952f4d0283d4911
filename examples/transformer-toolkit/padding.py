# %%
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils.rnn import pad_sequence

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

PAD = 0  # zh: 补齐用的 token 编号 | en: the id of the padding token
seqs = [torch.tensor(s, device=device) for s in ([5, 8, 3, 9, 2], [7, 4, 6], [1, 9])]
batch = pad_sequence(seqs, batch_first=True, padding_value=PAD)  # zh: 补到最长的那条 | en: pad to the longest one
lengths = torch.tensor([len(s) for s in seqs], device=device)
B, T = batch.shape
pad_mask = torch.arange(T, device=device) >= lengths[:, None]  # zh: True 表示“这是填充” | en: True means "this is padding"
print(batch)
print(pad_mask)

# %%
C, n_head = 16, 4
emb = nn.Embedding(10, C).to(device)
mha = nn.MultiheadAttention(C, n_head, batch_first=True).to(device).eval()
x = emb(batch).detach()


def alone(s):
    # zh: 一条序列单独计算，没有填充
    # en: One sequence on its own, with no padding.
    e = emb(s)[None].detach()
    return mha(e, e, e)[0][0]


with torch.no_grad():
    out, w = mha(x, x, x, key_padding_mask=pad_mask)  # zh: True 表示“忽略这个键” | en: True means "ignore this key"
    no_mask, _ = mha(x, x, x)
    for i, s in enumerate(seqs):
        n = len(s)
        print(f"sequence {i} (length {n}): difference to running it alone, "
              f"with key_padding_mask {(out[i, :n] - alone(s)).abs().max().item():.1e}, "
              f"without {(no_mask[i, :n] - alone(s)).abs().max().item():.1e}")
print("weights of sequence 2, query 0:", [round(v, 3) for v in w[2, 0].tolist()])

# %%
# zh: 填充位置放什么都无所谓：换成另一个 token（7），真实 token 的输出一点不变
# en: What sits in the padding does not matter: another token there (7) leaves the real tokens' outputs unchanged.
garbage = batch.masked_fill(pad_mask, 7)
with torch.no_grad():
    xg = emb(garbage)
    out_g, _ = mha(xg, xg, xg, key_padding_mask=pad_mask)
real = ~pad_mask
print("real tokens unchanged:", torch.equal(out[real], out_g[real]))

# %%
# zh: 同样的权重交给 F.scaled_dot_product_attention：布尔 attn_mask 里 True 表示“可以看”，含义相反
# en: The same weights through F.scaled_dot_product_attention: there a boolean attn_mask means "may attend", the opposite.
attn_mask = ~pad_mask[:, None, None, :]  # zh: (B, 1, 1, T)：对所有头、所有查询广播 | en: (B, 1, 1, T): broadcast over heads and queries
q, k, v = F.linear(x, mha.in_proj_weight, mha.in_proj_bias).chunk(3, dim=-1)
q, k, v = (t.view(B, T, n_head, C // n_head).transpose(1, 2) for t in (q, k, v))
with torch.no_grad():
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
    y = mha.out_proj(y.transpose(1, 2).reshape(B, T, C))
print("attn_mask:", tuple(attn_mask.shape), "-> scores:", (B, n_head, T, T))
print("same as key_padding_mask:", torch.allclose(y[real], out[real], atol=1e-6),
      f" max abs difference {(y[real] - out[real]).abs().max().item():.1e}")

# %%
# zh: 填充位置自己的输出并不是 0：它们照样看真实的 token，之后的损失或池化必须把它们去掉
# en: The outputs at padded positions are not 0: they still attend to the real tokens, so the loss or pooling must drop them.
print("output norms of sequence 2:", [round(v, 2) for v in out[2].norm(dim=-1).tolist()])
# zh: 解码器要同时用因果掩码和填充掩码：两个布尔掩码取“与”
# en: A decoder needs the causal mask and the padding mask at once: AND the two boolean masks.
causal = torch.ones(T, T, dtype=torch.bool, device=device).tril()
both = causal & ~pad_mask[:, None, None, :]  # zh: (T, T) 与 (B, 1, 1, T) 广播成 (B, 1, T, T) | en: (T, T) and (B, 1, 1, T) broadcast to (B, 1, T, T)
print("causal & padding:", tuple(both.shape))
print(both[1, 0].int())
