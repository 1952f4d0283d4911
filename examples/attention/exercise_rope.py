# %%
import torch
import torch.nn.functional as F

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def rope(x, pos, base=10000.0):
    # zh: 把最后一维两两配对，第 i 对在位置 p 上旋转角度 p * base^(-2i/d)
    # en: Pair up the last dim; pair i at position p is rotated by the angle p * base^(-2i/d).
    d = x.size(-1)
    theta = base ** (-torch.arange(0, d, 2, device=x.device, dtype=x.dtype) / d)  # zh: 形状 (d/2,) | en: shape (d/2,)
    angle = pos[:, None].to(x.dtype) * theta  # zh: 形状 (T, d/2) | en: shape (T, d/2)
    cos, sin = angle.cos(), angle.sin()
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


d, T = 16, 8
x = torch.randn(T, d, device=device)
pos = torch.arange(T, device=device)
r = rope(x, pos)
# zh: 旋转不改变长度
# en: A rotation keeps the length.
print("norms kept:", torch.allclose(r.norm(dim=-1), x.norm(dim=-1), atol=1e-5))

# zh: 同样的运算用复数写：乘以 e^{i·angle}
# en: The same operation in complex numbers: multiply by e^{i·angle}.
theta = 10000.0 ** (-torch.arange(0, d, 2, device=device) / d)
rot = torch.polar(torch.ones(T, d // 2, device=device), pos[:, None] * theta)
as_complex = torch.view_as_real(torch.view_as_complex(x.view(T, d // 2, 2)) * rot).flatten(-2)
print("matches the complex form:", torch.allclose(r, as_complex, atol=1e-5))

# %%
# zh: 旋转后的点积只取决于位置差 m - n
# en: After rotation the dot product depends only on the offset m - n.
q, k = torch.randn(d, device=device), torch.randn(d, device=device)
p = torch.randn(200, d, device=device)  # zh: 对照：学出来的绝对位置嵌入，直接加上去 | en: for contrast: learned absolute embeddings, added


def rope_score(m, n):
    return (rope(q, torch.tensor([m], device=device)) * rope(k, torch.tensor([n], device=device))).sum().item()


print("  m    n   m-n   rope score   additive score")
for m, n in [(3, 1), (10, 8), (150, 148), (10, 3)]:
    print(f"{m:3d}  {n:3d}  {m - n:3d}   {rope_score(m, n):10.4f}   {((q + p[m]) * (k + p[n])).sum().item():14.4f}")

# %%
# zh: 所以整段注意力的输出和序列从哪个绝对位置开始无关
# en: So the attention output does not depend on where the sequence starts.
B, H = 2, 4
q, k, v = (torch.randn(B, H, T, d, device=device) for _ in range(3))
outs = []
for start in [0, 50, 1000]:
    pos = torch.arange(start, start + T, device=device)
    outs.append(F.scaled_dot_product_attention(rope(q, pos), rope(k, pos), v, is_causal=True))
print("start 0 vs 50:  ", torch.allclose(outs[0], outs[1], atol=1e-4), f" max abs difference {(outs[0] - outs[1]).abs().max().item():.1e}")
print("start 0 vs 1000:", torch.allclose(outs[0], outs[2], atol=1e-4), f" max abs difference {(outs[0] - outs[2]).abs().max().item():.1e}")

# %%
# zh: 差异随起点增大，是 float32 算大角度的舍入误差：换成 float64 就几乎消失
# en: The difference grows with the start because of float32 rounding at large angles; in float64 it all but vanishes.
q64, k64, v64 = q.double(), k.double(), v.double()
outs64 = []
for start in [0, 1000]:
    pos = torch.arange(start, start + T, device=device)
    outs64.append(F.scaled_dot_product_attention(rope(q64, pos), rope(k64, pos), v64, is_causal=True))
print(f"float64, start 0 vs 1000: max abs difference {(outs64[0] - outs64[1]).abs().max().item():.1e}")
