# %%
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, Sampler

torch.manual_seed(0)


class Sequences(Dataset):
    def __init__(self, n=1024):
        g = torch.Generator().manual_seed(0)
        self.lengths = torch.randint(4, 65, (n,), generator=g).tolist()  # zh: 长度 4 到 64 | en: lengths 4 to 64

    def __len__(self):
        return len(self.lengths)

    def __getitem__(self, i):
        return torch.full((self.lengths[i],), i)


def pad_collate(batch):
    return pad_sequence(batch, batch_first=True), torch.tensor([len(s) for s in batch])


class BucketSampler(Sampler):
    # zh: 每轮：打乱，按 pool 个样本分组，组内按长度排序后切成批量，最后打乱批量的顺序
    # en: Every epoch: shuffle, group pool samples at a time, sort each group by length and cut it into
    # en: batches, then shuffle the order of the batches.
    def __init__(self, lengths, batch_size, pool, generator):
        self.lengths, self.batch_size, self.pool, self.g = lengths, batch_size, pool, generator

    def __iter__(self):
        idx = torch.randperm(len(self.lengths), generator=self.g).tolist()
        batches = []
        for p in range(0, len(idx), self.pool):
            group = sorted(idx[p : p + self.pool], key=self.lengths.__getitem__)
            batches += [group[b : b + self.batch_size] for b in range(0, len(group), self.batch_size)]
        for k in torch.randperm(len(batches), generator=self.g).tolist():
            yield batches[k]

    def __len__(self):
        return sum(-(-min(self.pool, len(self.lengths) - p) // self.batch_size) for p in range(0, len(self.lengths), self.pool))


def padding_share(loader):
    real = total = 0
    for padded, lengths in loader:
        real += lengths.sum().item()
        total += padded.numel()
    return 1 - real / total


ds = Sequences()
g = torch.Generator().manual_seed(0)
loaders = {
    "random batches": DataLoader(ds, batch_size=32, shuffle=True, generator=g, collate_fn=pad_collate),
    "buckets, pool=256": DataLoader(ds, batch_sampler=BucketSampler(ds.lengths, 32, 256, g), collate_fn=pad_collate),
    "buckets, pool=1024 (all)": DataLoader(ds, batch_sampler=BucketSampler(ds.lengths, 32, 1024, g), collate_fn=pad_collate),
}
for name, loader in loaders.items():
    padded, lengths = next(iter(loader))
    print(f"{name:25s} batches {len(loader)}  padding {padding_share(loader):.1%}  "
          f"first batch: shape {tuple(padded.shape)}, lengths {lengths.min().item()}-{lengths.max().item()}")

# %%
# zh: 分桶不丢样本、不重复：一轮里每个下标恰好出现一次；而且每轮的分组都不同
# en: Bucketing loses and repeats nothing: every index appears exactly once per epoch, and the groups change every epoch.
loader = loaders["buckets, pool=256"]
epoch1 = [padded[:, 0].tolist() for padded, _ in loader]
epoch2 = [padded[:, 0].tolist() for padded, _ in loader]
print("every sample exactly once:", sorted(sum(epoch1, [])) == list(range(len(ds))))
print("first batch differs between epochs:", epoch1[0] != epoch2[0])
