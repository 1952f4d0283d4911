# %%
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class StridedStream(IterableDataset):
    # zh: 上一节的分片：worker k 读第 k, k+n, k+2n, ... 个
    # en: The previous section's sharding: worker k reads items k, k+n, k+2n, ...
    def __init__(self, n=10):
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(range(start, self.n, step))


loader = DataLoader(StridedStream(), batch_size=4, num_workers=2)
batches = [b.tolist() for b in loader]
print("batches:", batches)
print("batch sizes:", [len(b) for b in batches])


# %%
class BlockStream(StridedStream):
    # zh: 按“整批”分片：第 b 个长度为 batch_size 的块交给 worker b % n
    # en: Shard by whole batches: block b of batch_size items goes to worker b % n.
    def __init__(self, n=10, batch_size=4):
        super().__init__(n)
        self.batch_size = batch_size

    def __iter__(self):
        info = get_worker_info()
        wid, workers = (0, 1) if info is None else (info.id, info.num_workers)
        for b, first in enumerate(range(0, self.n, self.batch_size)):
            if b % workers == wid:
                yield from range(first, min(first + self.batch_size, self.n))


loader = DataLoader(BlockStream(), batch_size=4, num_workers=2)
batches = [b.tolist() for b in loader]
print("batches:", batches)
print("batch sizes:", [len(b) for b in batches], " original order:", sum(batches, []) == list(range(10)))
