# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
dtype = torch.float64
T, N, C, H = 5, 2, 3, 4
gru = nn.GRU(C, H, dtype=dtype, device=device)
x = torch.randn(T, N, C, dtype=dtype, device=device)

# zh: 三个门按 r、z、n 的顺序堆叠
# en: The three gates are stacked in the order r, z, n.
W_ir, W_iz, W_in = gru.weight_ih_l0.chunk(3)
W_hr, W_hz, W_hn = gru.weight_hh_l0.chunk(3)
b_ir, b_iz, b_in = gru.bias_ih_l0.chunk(3)
b_hr, b_hz, b_hn = gru.bias_hh_l0.chunk(3)


def gru_step(x_t, h, reset_after_bias=True):
    r = torch.sigmoid(x_t @ W_ir.T + b_ir + h @ W_hr.T + b_hr)  # zh: 重置门 | en: reset gate
    z = torch.sigmoid(x_t @ W_iz.T + b_iz + h @ W_hz.T + b_hz)  # zh: 更新门 | en: update gate
    if reset_after_bias:
        # zh: PyTorch 的写法：r 乘在 (W_hn h + b_hn) 整体上
        # en: PyTorch's form: r multiplies the whole (W_hn h + b_hn).
        n = torch.tanh(x_t @ W_in.T + b_in + r * (h @ W_hn.T + b_hn))
    else:
        # zh: 常见的另一种写法：先乘 r 再过线性层
        # en: A common alternative: apply r first, then the linear map.
        n = torch.tanh(x_t @ W_in.T + b_in + (r * h) @ W_hn.T + b_hn)
    return (1 - z) * n + z * h


with torch.no_grad():
    out, h_n = gru(x)
    for variant in (True, False):
        h = torch.zeros(N, H, dtype=dtype, device=device)
        steps = []
        for t in range(T):
            h = gru_step(x[t], h, reset_after_bias=variant)
            steps.append(h)
        ours = torch.stack(steps)
        label = "r * (W_hn h + b_hn)" if variant else "W_hn (r * h) + b_hn"
        print(f"{label}: allclose to nn.GRU {torch.allclose(ours, out)}, "
              f"max diff {(ours - out).abs().max().item():.1e}")
