# %%
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

torch.manual_seed(0)
# zh: 一个列表也是合法的 map-style 数据集：有 len 和下标
# en: A list is a valid map-style dataset too: it has len and indexing.
sequences = [torch.arange(1, n + 1) for n in (3, 1, 4, 2, 5)]
labels = [0, 1, 0, 1, 1]
ds = list(zip(sequences, labels, strict=True))

# %% raises="RuntimeError"
# zh: 默认的 collate_fn 用 torch.stack，长度不同就失败
# en: The default collate_fn uses torch.stack, which fails on different lengths.
next(iter(DataLoader(ds, batch_size=3)))


# %%
def pad_collate(batch):
    seqs, ys = zip(*batch, strict=True)
    lengths = torch.tensor([len(s) for s in seqs])
    # zh: 用 0 补齐到最长
    # en: Pad with 0 to the longest.
    padded = pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, lengths, torch.tensor(ys)


for padded, lengths, yb in DataLoader(ds, batch_size=3, collate_fn=pad_collate):
    print("padded:\n", padded, "\nlengths:", lengths.tolist(), " labels:", yb.tolist())
    assert padded.shape == (len(lengths), lengths.max())
    for row, n in zip(padded, lengths, strict=True):
        assert torch.equal(row[:n], torch.arange(1, n + 1)) and not row[n:].any()
print("every row holds its sequence, then zeros")
