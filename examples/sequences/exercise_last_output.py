# %%
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
lengths = torch.tensor([3, 5, 1, 4])
seqs = [torch.randn(n, 2, device=device) for n in lengths.tolist()]
padded = pad_sequence(seqs, batch_first=True)
lstm = nn.LSTM(2, 3, batch_first=True).to(device)
with torch.no_grad():
    out_packed, (h_n, _) = lstm(pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False))
out, _ = pad_packed_sequence(out_packed, batch_first=True)

# zh: out[:, -1] 是第 T_max 步：短序列在那里只有补齐的 0
# en: out[:, -1] is step T_max: for the short sequences it holds only padding zeros.
print("out[:, -1]:\n", out[:, -1])

# %%
# zh: 用 lengths - 1 为每一行挑出自己的最后一个真实时间步
# en: Use lengths - 1 to pick each row's own last real step.
last = out[torch.arange(len(lengths)), lengths - 1]
print("last real step == h_n[-1]:", torch.allclose(last, h_n[-1]))
print("out[:, -1]     == h_n[-1]:", torch.allclose(out[:, -1], h_n[-1]))

# zh: 同样的事用 gather 写：索引要扩展到特征维
# en: The same with gather: the index must be expanded over the feature dim.
index = (lengths - 1).to(device).view(-1, 1, 1).expand(-1, 1, out.shape[2])
print("gather gives the same:", torch.equal(out.gather(1, index).squeeze(1), last))
