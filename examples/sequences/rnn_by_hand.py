# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 用 float64 比较，差值只剩舍入误差
# en: Compare in float64 so that only rounding error is left.
dtype = torch.float64
T, N, C, H = 6, 2, 3, 4

# zh: 自己的参数，形状与 nn.RNN 的一样
# en: Our own parameters, shaped like nn.RNN's.
W_ih = torch.randn(H, C, dtype=dtype, device=device) * 0.5
W_hh = torch.randn(H, H, dtype=dtype, device=device) * 0.5
b_ih = torch.randn(H, dtype=dtype, device=device) * 0.1
b_hh = torch.randn(H, dtype=dtype, device=device) * 0.1


def rnn_step(x_t, h):
    # zh: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)
    # en: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)
    return torch.tanh(x_t @ W_ih.T + b_ih + h @ W_hh.T + b_hh)


x = torch.randn(T, N, C, dtype=dtype, device=device)
h = torch.zeros(N, H, dtype=dtype, device=device)
outputs = []
for t in range(T):  # zh: 同一组权重，一步一步往前走 | en: the same weights, one step at a time
    h = rnn_step(x[t], h)
    outputs.append(h)
ours = torch.stack(outputs)
print("our outputs:", tuple(ours.shape))

# %%
# zh: 把同样的权重拷进 nn.RNN，比较每一步的输出
# en: Copy the same weights into nn.RNN and compare every step's output.
rnn = nn.RNN(C, H, dtype=dtype, device=device)
with torch.no_grad():
    rnn.weight_ih_l0.copy_(W_ih)
    rnn.weight_hh_l0.copy_(W_hh)
    rnn.bias_ih_l0.copy_(b_ih)
    rnn.bias_hh_l0.copy_(b_hh)
out, h_n = rnn(x)
print(f"max |ours - nn.RNN|: {(ours - out).abs().max().item():.1e}")
print("allclose:", torch.allclose(ours, out), " last h equals h_n[0]:", torch.allclose(h, h_n[0]))

# %%
# zh: LSTM 的一步：4 个门按 i、f、g、o 的顺序堆叠在 weight_ih 和 weight_hh 里
# en: One LSTM step: the 4 gates are stacked in weight_ih and weight_hh in the order i, f, g, o.
lstm = nn.LSTM(C, H, dtype=dtype, device=device)


def lstm_step(x_t, h, c):
    gates = x_t @ lstm.weight_ih_l0.T + lstm.bias_ih_l0 + h @ lstm.weight_hh_l0.T + lstm.bias_hh_l0
    i, f, g, o = gates.chunk(4, dim=1)
    i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
    c = f * c + i * g  # zh: 忘掉一部分旧记忆，写入一部分新内容 | en: forget part of the old memory, write some new
    h = o * c.tanh()
    return h, c


h = torch.zeros(N, H, dtype=dtype, device=device)
c = torch.zeros(N, H, dtype=dtype, device=device)
with torch.no_grad():
    for t in range(T):
        h, c = lstm_step(x[t], h, c)
    out, (h_n, c_n) = lstm(x)
print("h matches:", torch.allclose(h, h_n[0]), " c matches:", torch.allclose(c, c_n[0]))
print(f"max |h - h_n|: {(h - h_n[0]).abs().max().item():.1e}")
