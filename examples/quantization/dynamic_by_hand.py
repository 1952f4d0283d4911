# %%
import torch
from torch import nn

torch.manual_seed(0)
# zh: 手算的整数运算很小，放在 CPU 上做
# en: The hand-made integer arithmetic is tiny; it runs on the CPU.
linear = nn.Linear(64, 32)
x = torch.randn(4, 64)  # zh: 4 个 token，每个 64 维 | en: 4 tokens of 64 features
with torch.no_grad():
    y_ref = linear(x)
    W, b = linear.weight, linear.bias

# zh: 权重按输出通道（每行）量化，scale 的形状是 (32, 1)
# en: Weights quantized per output channel (per row); the scale has shape (32, 1).
w_scale = W.abs().amax(dim=1, keepdim=True) / 127
w_q = torch.round(W / w_scale).clamp(-128, 127).to(torch.int8)

# zh: 只量化权重：存 int8，算之前反量化回 float，矩阵乘法仍是浮点的
# en: Weight-only: store int8, dequantize to float before use; the matmul is still floating point.
y_wo = x @ (w_q.float() * w_scale).T + b
# zh: 每行一个 scale，所以也可以在乘完之后再乘 scale
# en: With one scale per row, the scale can also be applied after the product.
y_wo_late = (x @ w_q.float().T) * w_scale.T + b
print(f"weight-only  max |y - y_ref|: {(y_wo - y_ref).abs().max().item():.5f}")
print(f"scale before or after the matmul, max difference: {(y_wo - y_wo_late).abs().max().item():.1e}")

# %%
# zh: 动态量化激活：运行时给每个 token（每行）算一个 scale
# en: Dynamic activation quantization: at run time, one scale per token (per row).
x_scale = x.abs().amax(dim=1, keepdim=True) / 127  # zh: 形状 (4, 1) | en: shape (4, 1)
x_q = torch.round(x / x_scale).clamp(-128, 127).to(torch.int8)

# zh: int8 × int8 的结果如果还存成 int8 会溢出回绕
# en: Keeping the int8 x int8 result in int8 overflows and wraps around.
wrapped = x_q @ w_q.T
acc = x_q.to(torch.int32) @ w_q.to(torch.int32).T  # zh: int32 累加 | en: int32 accumulation
exact = x_q.double() @ w_q.double().T  # zh: 同样的整数乘积，用 float64 算作对照 | en: the same integer products in float64, for reference
print("int8 result dtype:", wrapped.dtype, " equal to the exact sums:", torch.equal(wrapped.double(), exact))
print("int32 result dtype:", acc.dtype, " equal to the exact sums:", torch.equal(acc.double(), exact))
print("largest |accumulator|:", acc.abs().max().item(), " worst case 64 * 128 * 128 =", 64 * 128 * 128)
print("int16 max:", torch.iinfo(torch.int16).max, " int32 max:", torch.iinfo(torch.int32).max)

# zh: 重新缩放：整数结果乘以 token 的 scale 和通道的 scale，再加偏置
# en: Rescale: the integer result times the token's scale and the channel's scale, plus the bias.
y_dyn = acc.float() * x_scale * w_scale.T + b
print(f"dynamic int8 max |y - y_ref|: {(y_dyn - y_ref).abs().max().item():.5f}")

# %%
# zh: 为什么按 token 给 scale：让一个 token 带一个很大的值（离群值）
# en: Why one scale per token: give one token a very large value (an outlier).
x_out = x.clone()
x_out[0, 5] = 60.0
with torch.no_grad():
    y_out_ref = linear(x_out)


def dynamic_linear(x, x_scale):
    x_q = torch.round(x / x_scale).clamp(-128, 127).to(torch.int32)
    return (x_q @ w_q.to(torch.int32).T).float() * x_scale * w_scale.T + b


per_tensor = dynamic_linear(x_out, x_out.abs().max() / 127)  # zh: 整个张量一个 scale | en: one scale for the whole tensor
per_token = dynamic_linear(x_out, x_out.abs().amax(dim=1, keepdim=True) / 127)


def rel(y):  # zh: 每个 token 的相对误差 | en: relative error per token
    return (y - y_out_ref).norm(dim=1) / y_out_ref.norm(dim=1)


print("relative error per token, per-tensor scale:", [f"{v:.4f}" for v in rel(per_tensor).tolist()])
print("relative error per token, per-token scale: ", [f"{v:.4f}" for v in rel(per_token).tolist()])
