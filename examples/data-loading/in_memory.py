# %%
import time

import torch
from torch.utils.data import BatchSampler, DataLoader, RandomSampler, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
X, y = torch.randn(16384, 64), torch.randint(0, 10, (16384,))  # zh: 数据已经整个在内存里 | en: the data is already all in memory
ds = TensorDataset(X, y)


def epoch_rate(batches):
    it = iter(batches)
    next(it)  # zh: 和上一节一样，不计第一个批量（以及 worker 的启动） | en: as before, skip the first batch (and the workers' start-up)
    start = time.perf_counter()
    n = sum(len(xb) for xb, yb in it)
    return n / (time.perf_counter() - start)


g = torch.Generator().manual_seed(0)
ways = {
    # zh: 默认做法：每个样本调用一次 ds[i]，再由 collate_fn 把 64 个样本 stack 起来
    # en: The default: one ds[i] call per sample, then collate_fn stacks 64 samples.
    "DataLoader, batch_size=64": lambda: DataLoader(ds, batch_size=64, shuffle=True, generator=g),
    "  ... with num_workers=2": lambda: DataLoader(ds, batch_size=64, shuffle=True, generator=g, num_workers=2),
    # zh: 让采样器一次给出一整批下标，ds[下标列表] 一次取出整个批量；batch_size=None 关掉自动拼批
    # en: The sampler yields a whole batch of indices, ds[list] fetches the batch at once; batch_size=None turns off auto-batching.
    "BatchSampler + batch_size=None": lambda: DataLoader(
        ds, sampler=BatchSampler(RandomSampler(ds, generator=g), batch_size=64, drop_last=False), batch_size=None),
    # zh: 不用 DataLoader：打乱下标，切成块，直接索引张量
    # en: No DataLoader: shuffle the indices, split them, index the tensors directly.
    "randperm + indexing": lambda: ((X[idx], y[idx]) for idx in torch.randperm(len(X), generator=g).split(64)),
}
xb, yb = next(iter(ways["BatchSampler + batch_size=None"]()))
print("one batch from BatchSampler + batch_size=None:", tuple(xb.shape), tuple(yb.shape))

# %% volatile=true
base = None
for name, make in ways.items():
    rate = epoch_rate(make())
    base = base or rate
    print(f"{name:32s} {rate:10,.0f} samples/s  {rate / base:5.1f}x")
