# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: 默认 batch_first=False：输入形状是 (T, N, C)，即 (时间步, 批量, 特征)
# en: By default batch_first=False: the input is (T, N, C), i.e. (time steps, batch, features).
T, N, C, H = 5, 3, 4, 6
x = torch.randn(T, N, C, device=device)
rnn = nn.RNN(input_size=C, hidden_size=H).to(device)
out, h_n = rnn(x)
print("input :", tuple(x.shape))
print("output:", tuple(out.shape), " (T, N, H): the top layer's h_t at every step")
print("h_n   :", tuple(h_n.shape), " (layers * directions, N, H): the last step of every layer")
print("out[-1] == h_n[0]:", torch.allclose(out[-1], h_n[0]))

# %%
# zh: batch_first=True 只改变 input 和 output 的布局，h_n 和 c_n 仍然把批量放在第 1 维
# en: batch_first=True changes only the layout of input and output; h_n and c_n keep the batch in dim 1.
lstm = nn.LSTM(C, H, num_layers=2, bidirectional=True, batch_first=True).to(device)
xb = x.transpose(0, 1)  # zh: (N, T, C) | en: (N, T, C)
out, (h_n, c_n) = lstm(xb)
print("input :", tuple(xb.shape))
print("output:", tuple(out.shape), " (N, T, 2 * H): forward and backward halves side by side")
print("h_n   :", tuple(h_n.shape), " c_n:", tuple(c_n.shape), " (2 layers * 2 directions, N, H)")

# zh: h_n 按 (层, 方向) 排列：[-2] 是最上层的正向，[-1] 是最上层的反向
# en: h_n is ordered by (layer, direction): [-2] is the top layer forward, [-1] the top layer backward.
print("forward  half at the last step  == h_n[-2]:", torch.allclose(out[:, -1, :H], h_n[-2]))
print("backward half at the first step == h_n[-1]:", torch.allclose(out[:, 0, H:], h_n[-1]))
print("h_n viewed as (layers, directions, N, H):", tuple(h_n.view(2, 2, N, H).shape))

# %%
# zh: GRU 和 RNN 一样只返回 h_n；LSTM 多一个细胞状态 c_n
# en: GRU, like RNN, returns only h_n; LSTM adds the cell state c_n.
gru = nn.GRU(C, H, num_layers=2).to(device)
out, h_n = gru(x)
print("GRU output:", tuple(out.shape), " h_n:", tuple(h_n.shape))

# zh: 不传初始状态时从全 0 开始；传入时形状必须和 h_n 一样
# en: Without an initial state it starts from zeros; one passed in must have h_n's shape.
h0 = torch.zeros(2, N, H, device=device)
print("explicit zero h0 gives the same output:", torch.allclose(gru(x, h0)[0], out))

# %%
# zh: 权重按门堆叠：LSTM 有 4 个门，GRU 有 3 个，所以第 0 维是 4H 和 3H
# en: Weights are stacked per gate: an LSTM has 4 gates and a GRU 3, hence 4H and 3H rows.
for name, module in [("RNN", rnn), ("LSTM", lstm), ("GRU", gru)]:
    shapes = {n: tuple(p.shape) for n, p in module.named_parameters() if n.endswith("_l0")}
    print(f"{name:4s}", shapes)
# zh: 双向时，第 2 层的输入是第 1 层两个方向拼起来的 2H 维
# en: With two directions, layer 2 reads both halves of the layer below: 2H inputs.
print("LSTM weight_ih_l1:", tuple(lstm.weight_ih_l1.shape),
      " weight_ih_l0_reverse:", tuple(lstm.weight_ih_l0_reverse.shape))

# %%
# zh: 没有批量维的单条序列 (T, C) 也可以
# en: A single unbatched sequence (T, C) works too.
out, h_n = rnn(x[:, 0])
print("unbatched:", tuple(x[:, 0].shape), "->", tuple(out.shape), tuple(h_n.shape))
