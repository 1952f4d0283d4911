# %%
import math

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

B, T, d = 2, 6, 8
q, k, v = (torch.randn(B, T, d, device=device) for _ in range(3))

# zh: 下三角为 True：位置 i 只能看位置 0..i
# en: True on and below the diagonal: position i may look at positions 0..i only.
mask = torch.tril(torch.ones(T, T, dtype=torch.bool, device=device))
print(mask.int())

# %%
scores = q @ k.transpose(-2, -1) / math.sqrt(d)
# zh: 未来的位置填 -inf，softmax 之后权重恰好是 0
# en: Fill future positions with -inf; after softmax their weight is exactly 0.
masked = scores.masked_fill(~mask, float("-inf"))
weights = masked.softmax(dim=-1)
out = weights @ v
torch.set_printoptions(precision=2)
print(weights[0])

# %%
# zh: 三种交给 PyTorch 的写法，结果都和手写的一致
# en: Three ways to hand the mask to PyTorch; all agree with the hand-written version.
ref_causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
ref_bool = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # zh: True 表示“可以看” | en: True means "may attend"
additive = torch.zeros(T, T, device=device).masked_fill(~mask, float("-inf"))
ref_float = F.scaled_dot_product_attention(q, k, v, attn_mask=additive)  # zh: 加到分数上 | en: added to the scores
for name, ref in [("is_causal=True", ref_causal), ("bool attn_mask", ref_bool), ("float attn_mask", ref_float)]:
    diff = (out - ref).abs().max().item()
    print(f"{name:16s} allclose: {torch.allclose(out, ref, atol=1e-5)}  max abs difference: {diff:.1e}")

# %% caption="Attention weights without and with the causal mask" caption_zh="不加掩码和加因果掩码时的注意力权重"
full = (scores.softmax(dim=-1))[0].cpu()
fig, axes = plt.subplots(1, 2, figsize=(8, 3.6))
for ax, w, title in [(axes[0], full, "no mask"), (axes[1], weights[0].cpu(), "causal mask")]:
    im = ax.imshow(w, cmap="viridis", vmin=0, vmax=1)
    ax.set_title(title)
    ax.set_xlabel("key position j")
    ax.set_ylabel("query position i")
fig.colorbar(im, ax=axes, label="weight")
plt.show()

# %%
# zh: 一整行都被遮住时，softmax 得到 0/0 = NaN
# en: When a whole row is masked, softmax computes 0/0 = NaN.
row = torch.tensor([1.0, 2.0, 3.0]).masked_fill(torch.ones(3, dtype=torch.bool), float("-inf"))
print(row, "->", row.softmax(dim=-1))

# zh: 让第 0 行一个位置都不许看，别的行不变
# en: Let row 0 attend to nothing and leave the other rows alone.
blocked = mask.clone()
blocked[0] = False
out_sdpa = F.scaled_dot_product_attention(q, k, v, attn_mask=blocked)
print("F.scaled_dot_product_attention, row 0:", out_sdpa[0, 0, :4], " row 1 as before:", torch.allclose(out_sdpa[:, 1], ref_bool[:, 1]))
mha = nn.MultiheadAttention(d, 2, batch_first=True).to(device)
out_mha, w_mha = mha(q, k, v, attn_mask=~blocked)  # zh: 这里 True 表示“不许看” | en: here True means "may not attend"
print("nn.MultiheadAttention, row 0:", out_mha[0, 0, :4].detach(), " weights:", w_mha[0, 0, :4].detach())
