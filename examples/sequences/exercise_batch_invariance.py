# %%
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
dtype = torch.float64  # zh: 用 float64 比较 | en: compare in float64
data = [torch.randn(n, 3, dtype=dtype) for n in (2, 7, 4, 1, 6, 3, 5, 2)]


def pad_collate(batch):  # zh: 和 Dataset 一章的练习一样 | en: as in the data chapter's exercise
    return pad_sequence(batch, batch_first=True), torch.tensor([len(s) for s in batch])


class Model(nn.Module):
    def __init__(self, pack):
        super().__init__()
        self.pack = pack
        self.gru = nn.GRU(3, 8, batch_first=True)
        self.head = nn.Linear(8, 1)

    def forward(self, x, lengths):
        if self.pack:
            x = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        _, h_n = self.gru(x)
        return self.head(h_n[-1]).squeeze(1)


def predict(model, batch_size):
    loader = DataLoader(data, batch_size=batch_size, collate_fn=pad_collate)  # zh: 不打乱：顺序固定 | en: no shuffle: fixed order
    with torch.no_grad():
        return torch.cat([model(x.to(device), lengths) for x, lengths in loader])


for pack in (True, False):
    torch.manual_seed(1)
    model = Model(pack).to(device, dtype)
    alone = predict(model, batch_size=1)  # zh: 一条一条：没有补齐 | en: one at a time: no padding
    batched = predict(model, batch_size=4)  # zh: 补齐到同批最长的长度 | en: padded to the longest in the batch
    print(f"pack={pack!s:5s} same predictions alone and batched: {torch.allclose(alone, batched)}"
          f"  max diff {(alone - batched).abs().max().item():.1e}")
