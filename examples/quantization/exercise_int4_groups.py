# %%
import torch

torch.manual_seed(0)
# zh: 一个 (64, 256) 的权重，带长尾（拉普拉斯分布）
# en: A (64, 256) weight with a long tail (Laplace distribution).
W = torch.distributions.Laplace(0.0, 0.02).sample((64, 256))


def quantize_int4(W, group_size):
    # zh: 每 group_size 个相邻的输入一组，每组一个 scale；int4 的范围是 [-8, 7]
    # en: One scale per group of group_size neighbouring inputs; the int4 range is [-8, 7].
    G = W.reshape(W.shape[0], -1, group_size)
    scale = G.abs().amax(dim=-1, keepdim=True) / 7
    q = torch.round(G / scale).clamp(-8, 7).to(torch.int8)
    return q.reshape(W.shape), scale


print("group size   scales   relative error")
for group_size in (256, 128, 32):  # zh: 256 就是每行一个 scale | en: 256 is one scale per row
    q, scale = quantize_int4(W, group_size)
    W_hat = (q.reshape(scale.shape[0], -1, group_size) * scale).reshape(W.shape)
    print(f"{group_size:10d}   {scale.numel():6d}   {((W - W_hat).norm() / W.norm()).item():.4f}")

# %%
# zh: 两个 int4 装进一个字节：低 4 位放偶数列，高 4 位放奇数列
# en: Two int4 values per byte: even columns in the low 4 bits, odd columns in the high 4 bits.
q, scale = quantize_int4(W, 32)
packed = (q[:, 0::2] & 0xF).to(torch.uint8) | ((q[:, 1::2] & 0xF).to(torch.uint8) << 4)  # zh: 先转 uint8 再移位 | en: uint8 before the shift
low = (packed & 0xF).to(torch.int8)
high = (packed >> 4).to(torch.int8)
low = torch.where(low > 7, low - 16, low)  # zh: 符号扩展：8..15 表示 -8..-1 | en: sign extension: 8..15 mean -8..-1
high = torch.where(high > 7, high - 16, high)
unpacked = torch.stack([low, high], dim=-1).reshape(q.shape)
print("packed:", packed.dtype, tuple(packed.shape), " unpacked equals q:", torch.equal(unpacked, q))
scale16 = scale.half()  # zh: scale 常存成 16 位 | en: scales are often stored in 16 bits
total = packed.nbytes + scale16.nbytes
print(f"bytes: float32 {W.nbytes}, int4 + fp16 scales {total}, bits per weight {8 * total / W.numel():.2f}")
