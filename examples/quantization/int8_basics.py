# %%
import torch

torch.manual_seed(0)
# zh: 八个浮点权重，对称地量化到 int8
# en: Eight float weights, quantized symmetrically to int8.
w = torch.randn(8)
scale = w.abs().max() / 127  # zh: 绝对值最大的数对应 127 | en: the largest magnitude maps to 127
q = torch.round(w / scale).clamp(-128, 127).to(torch.int8)
w_hat = q.float() * scale  # zh: 反量化：乘回 scale | en: dequantize: multiply the scale back
print("scale:", f"{scale.item():.6f}")
print("w:    ", [round(v, 4) for v in w.tolist()])
print("q:    ", q.tolist())
print("w_hat:", [round(v, 4) for v in w_hat.tolist()])
print(f"max |w - w_hat|: {(w - w_hat).abs().max().item():.6f}  (scale / 2 = {scale.item() / 2:.6f})")
print("bytes per value: float32", w.element_size(), " int8", q.element_size())


# %%
# zh: 一个权重矩阵，各行（输出通道）的取值范围相差很大
# en: A weight matrix whose rows (output channels) have very different ranges.
row_std = torch.tensor([0.01, 0.03, 0.1, 0.3, 1.0, 3.0])
W = torch.randn(6, 256) * row_std[:, None]


def quantize(W, scale):
    q = torch.round(W / scale).clamp(-128, 127).to(torch.int8)
    return q, q.float() * scale


# zh: 每张量一个 scale，还是每个输出通道（每行）一个 scale
# en: One scale per tensor, or one scale per output channel (per row).
scale_tensor = W.abs().max() / 127
scale_channel = W.abs().amax(dim=1, keepdim=True) / 127  # zh: 形状 (6, 1) | en: shape (6, 1)
q_t, W_t = quantize(W, scale_tensor)
q_c, W_c = quantize(W, scale_channel)


def rel_error(W_hat):  # zh: 每行的相对误差 ||W - W_hat|| / ||W|| | en: per-row relative error ||W - W_hat|| / ||W||
    return ((W - W_hat).norm(dim=1) / W.norm(dim=1))


print("scale per tensor:", f"{scale_tensor.item():.5f}", " scales per channel:", scale_channel.shape)
print("row std   per-tensor error   levels used   per-channel error   levels used")
err_t, err_c = rel_error(W_t), rel_error(W_c)
for i in range(len(row_std)):
    print(f"{row_std[i].item():7.2f}   {err_t[i].item():16.4f}   {q_t[i].unique().numel():11d}"
          f"   {err_c[i].item():17.4f}   {q_c[i].unique().numel():11d}")
print(f"whole matrix: per-tensor {((W - W_t).norm() / W.norm()).item():.4f}, "
      f"per-channel {((W - W_c).norm() / W.norm()).item():.4f}")
print("extra storage for per-channel scales:", scale_channel.numel(), "floats for", W.numel(), "weights")
