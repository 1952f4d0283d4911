# %%
from collections import Counter

import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

torch.manual_seed(0)


class Stream(IterableDataset):
    # zh: 一个数据流：只能从头读到尾，不能按下标取（比如一个大文件、一个网络流）
    # en: A stream: read from start to end, no indexing (a large file, a network feed).
    def __init__(self, n=12):
        self.n = n

    def __iter__(self):
        return iter(range(self.n))


def items(loader):
    return [x for batch in loader for x in batch.tolist()]


print("num_workers=0:", items(DataLoader(Stream(), batch_size=3)))
seen = items(DataLoader(Stream(), batch_size=3, num_workers=2))
print("num_workers=2:", seen)
print("items read:", len(seen))
print("times each item was seen:", sorted(Counter(seen).values()) == [2] * 12, dict(Counter(seen)))


# %%
class ShardedStream(Stream):
    def __iter__(self):
        info = get_worker_info()
        if info is None:  # zh: 主进程里（num_workers=0）读整个流 | en: in the main process (num_workers=0), read it all
            start, step = 0, 1
        else:  # zh: worker k 读第 k, k+n, k+2n, ... 个 | en: worker k reads items k, k+n, k+2n, ...
            start, step = info.id, info.num_workers
        return iter(range(start, self.n, step))


for w in (0, 2):
    seen = items(DataLoader(ShardedStream(), batch_size=3, num_workers=w))
    print(f"num_workers={w}: {seen}   every item exactly once: {sorted(seen) == list(range(12))}")


# %%
# zh: 每个批量来自哪个 worker：批量在 worker 内部拼好，worker 轮流交出
# en: Which worker built each batch: batches are assembled inside a worker, and the workers take turns.
class Tagged(ShardedStream):
    def __iter__(self):
        wid = get_worker_info().id
        return ((wid, x) for x in super().__iter__())


for wid, x in DataLoader(Tagged(), batch_size=3, num_workers=2):
    print("worker", wid.tolist(), "items", x.tolist())

# %% raises="ValueError"
# zh: 流没有下标，DataLoader 也就没法打乱它
# en: A stream has no indices, so the DataLoader cannot shuffle it.
DataLoader(Stream(), batch_size=3, shuffle=True)
