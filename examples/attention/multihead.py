# %%
import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

B, T, C, n_head = 2, 5, 8, 2
hd = C // n_head  # zh: 每个头的维数 | en: width of one head
x = torch.randn(B, T, C, device=device)

# zh: 拆头：(B, T, C) -> (B, T, n_head, hd) -> (B, n_head, T, hd)
# en: Split heads: (B, T, C) -> (B, T, n_head, hd) -> (B, n_head, T, hd).
heads = x.view(B, T, n_head, hd).transpose(1, 2)
print("heads:", tuple(heads.shape), " contiguous:", heads.is_contiguous())
# zh: 头 1 就是通道 hd..2*hd 那一段
# en: Head 1 is simply channels hd..2*hd.
print("head 1 is x[..., 4:8]:", torch.equal(heads[:, 1], x[..., hd : 2 * hd]))

# %%
# zh: 每个头各自做注意力，结果形状是 (B, n_head, T, hd)，内存是连续的
# en: Each head attends on its own; the result has shape (B, n_head, T, hd) and is contiguous.
y = (heads @ heads.transpose(-2, -1) / math.sqrt(hd)).softmax(dim=-1) @ heads
print("y:", tuple(y.shape), " contiguous:", y.is_contiguous())
print("y.transpose(1, 2) contiguous:", y.transpose(1, 2).is_contiguous())

# %% raises="RuntimeError"
# zh: 合并头时，transpose 之后的张量不连续，不能直接 view
# en: Merging heads: after transpose the tensor is not contiguous, so view fails.
y.transpose(1, 2).view(B, T, C)

# %%
merged = y.transpose(1, 2).contiguous().view(B, T, C)
print("merged:", tuple(merged.shape), " same as reshape:", torch.equal(merged, y.transpose(1, 2).reshape(B, T, C)))


# %%
class MultiHeadAttention(nn.Module):
    def __init__(self, C, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(C, 3 * C)  # zh: 一次算出 q、k、v | en: q, k and v in one matmul
        self.proj = nn.Linear(C, C)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # zh: 形状 (B, n_head, T, T) | en: shape (B, n_head, T, T)
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))  # zh: True 表示“可以看” | en: True means "may attend"
        weights = scores.softmax(dim=-1)
        y = (weights @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y), weights


mine = MultiHeadAttention(C, n_head).to(device)
ref = nn.MultiheadAttention(C, n_head, batch_first=True).to(device)
print({name: tuple(p.shape) for name, p in ref.named_parameters()})

# zh: 把 PyTorch 的权重拷进手写的模块：in_proj 就是 q、k、v 三个矩阵摞在一起
# en: Copy PyTorch's weights into ours: in_proj is the q, k and v matrices stacked.
with torch.no_grad():
    mine.qkv.weight.copy_(ref.in_proj_weight)
    mine.qkv.bias.copy_(ref.in_proj_bias)
    mine.proj.weight.copy_(ref.out_proj.weight)
    mine.proj.bias.copy_(ref.out_proj.bias)

out, w = mine(x)
ref_out, ref_w = ref(x, x, x)  # zh: 自注意力：query、key、value 都是 x | en: self-attention: query, key and value are all x
print("outputs allclose:", torch.allclose(out, ref_out, atol=1e-5), f" max abs difference: {(out - ref_out).abs().max().item():.1e}")
# zh: nn.MultiheadAttention 默认返回各头权重的平均
# en: nn.MultiheadAttention returns the weights averaged over heads by default.
print("weights allclose:", torch.allclose(w.mean(dim=1), ref_w, atol=1e-5), " shape:", tuple(ref_w.shape))

# %%
# zh: 因果掩码：注意布尔掩码的含义和 F.scaled_dot_product_attention 相反
# en: Causal masking: note that the boolean mask means the opposite of F.scaled_dot_product_attention's.
causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=device))
out, _ = mine(x, mask=causal)
ref_out, _ = ref(x, x, x, attn_mask=~causal)  # zh: 这里 True 表示“不许看” | en: here True means "may not attend"
print("with ~causal:", torch.allclose(out, ref_out, atol=1e-5))
wrong, _ = ref(x, x, x, attn_mask=causal)
print("with causal: ", torch.allclose(out, wrong, atol=1e-5))
# zh: 用同样的权重，F.scaled_dot_product_attention 接受的是 causal 本身
# en: With the same weights, F.scaled_dot_product_attention takes causal itself.
q, k, v = (t.view(B, T, n_head, hd).transpose(1, 2) for t in mine.qkv(x).split(C, dim=-1))
y = F.scaled_dot_product_attention(q, k, v, attn_mask=causal).transpose(1, 2).reshape(B, T, C)
print("F.sdpa with causal:", torch.allclose(mine.proj(y), out, atol=1e-5))
