# %%
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
lstm = nn.LSTM(input_size=5, hidden_size=8, num_layers=2, batch_first=True).to(device)
# zh: 11 条长度为 7 的序列，每批 4 条：最后一批只有 3 条
# en: 11 sequences of length 7 in batches of 4: the last batch holds only 3.
loader = DataLoader(TensorDataset(torch.randn(11, 7, 5)), batch_size=4)

# %% raises="RuntimeError"
# zh: 按批量大小 4 事先建好初始状态 (层数, 批量, H)
# en: The initial state built once for a batch size of 4: (layers, batch, H).
h0 = torch.zeros(2, 4, 8, device=device)
c0 = torch.zeros(2, 4, 8, device=device)
for (x,) in loader:
    out, (h_n, c_n) = lstm(x.to(device), (h0, c0))
    print("batch", tuple(x.shape), "ok")

# %% raises="RuntimeError"
# zh: batch_first=True 不改变 h0 的布局：批量仍在第 1 维
# en: batch_first=True does not change h0's layout: the batch stays in dim 1.
x = torch.randn(3, 7, 5, device=device)
h0 = torch.zeros(3, 2, 8, device=device)  # zh: 误写成 (批量, 层数, H) | en: written as (batch, layers, H) by mistake
lstm(x, (h0, h0))

# %%
# zh: GRU 和 RNN 只有一个状态，报错里写的是 hidden 而不是 hidden[0]
# en: GRU and RNN have a single state, and their message says hidden rather than hidden[0].
gru = nn.GRU(input_size=5, hidden_size=8, num_layers=2, batch_first=True).to(device)
try:
    gru(x, torch.zeros(2, 4, 8, device=device))
except RuntimeError as e:
    print("GRU:", e)

# %%
# zh: 改法：按输入的批量大小建初始状态，或者干脆不传（从全 0 开始）
# en: The fix: build the initial state from the input's batch size, or pass none (it starts from zeros).
for (x,) in loader:
    x = x.to(device)
    h0 = torch.zeros(lstm.num_layers, x.size(0), lstm.hidden_size, device=device)
    out, _ = lstm(x, (h0, torch.zeros_like(h0)))
    print("batch", tuple(x.shape), "-> h0", tuple(h0.shape), "| same as no state:", torch.allclose(out, lstm(x)[0]))
