# %%
import multiprocessing
import time

import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
torch.set_num_threads(1)


class Counted(Dataset):
    # zh: 一个所有 worker 共享的计数器：worker 每做完一个批量就加一
    # en: A counter shared by all workers: each finished batch adds one.
    def __init__(self, n=48, batch_size=4):
        self.n, self.batch_size = n, batch_size
        self.done = multiprocessing.Value("i", 0)

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i % self.batch_size == self.batch_size - 1:  # zh: 一个批量的最后一个样本 | en: last item of a batch
            with self.done.get_lock():
                self.done.value += 1
        return torch.zeros(64)


STEP_S = 0.015


def most_ahead(num_workers, prefetch_factor):
    # zh: 主进程是个慢消费者（每个批量“训练” 15 ms），看 worker 最多能领先多少个批量
    # en: The main process is a slow consumer (15 ms of "training" per batch): how far ahead do the workers get?
    ds = Counted()
    loader = DataLoader(ds, batch_size=4, num_workers=num_workers, prefetch_factor=prefetch_factor)
    ahead = []
    for consumed, _ in enumerate(loader, start=1):
        time.sleep(STEP_S)
        ahead.append(ds.done.value - consumed)  # zh: 做好了但还没被取走的批量 | en: batches finished but not yet taken
    return max(ahead)


print("default prefetch_factor with workers:", DataLoader(Counted(), num_workers=2).prefetch_factor)
print(f"the consumer spends {1000 * STEP_S:.0f} ms on each batch; {len(Counted()) // 4} batches per run")
for num_workers, prefetch_factor in [(1, 1), (1, 2), (2, 2), (2, 4)]:
    print(f"num_workers={num_workers} prefetch_factor={prefetch_factor}: at most {most_ahead(num_workers, prefetch_factor)} "
          f"batches ready ahead of the consumer (num_workers * prefetch_factor = {num_workers * prefetch_factor})")

# %%
# zh: 每个领先的批量都占着内存：比如 8 个 worker，每批 256 张 3x224x224 的 float32 图
# en: Every batch in flight holds memory: say 8 workers and batches of 256 float32 images of 3x224x224.
batch_bytes = 256 * 3 * 224 * 224 * 4
for prefetch_factor in (2, 8):
    print(f"prefetch_factor={prefetch_factor}: up to {8 * prefetch_factor} batches, "
          f"{8 * prefetch_factor * batch_bytes / 2**30:.1f} GiB of shared memory")

# %% raises="ValueError"
# zh: prefetch_factor 只对 worker 有意义：num_workers=0 时主进程自己按需加载
# en: prefetch_factor only applies to workers: with num_workers=0 the main process loads on demand.
DataLoader(Counted(), num_workers=0, prefetch_factor=2)
