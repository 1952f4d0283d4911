# %%
import os
import time

import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

torch.manual_seed(0)
torch.set_num_threads(1)


def open_resources(worker_id):
    # zh: 每个 worker 启动时运行一次：假装要打开数据库或载入一张 0.2 s 的索引表
    # en: Runs once as each worker starts: pretend to open a database or load an index, 0.2 s.
    time.sleep(0.2)
    get_worker_info().dataset.ready = True


class Records(Dataset):
    def __init__(self):
        self.ready = False
        self.difficulty = 0  # zh: 主进程每个轮次都会改它 | en: the main process changes it every epoch

    def __len__(self):
        return 32

    def __getitem__(self, i):
        assert self.ready
        return torch.tensor([os.getpid(), self.difficulty])


def run(persistent):
    ds = Records()
    loader = DataLoader(ds, batch_size=8, num_workers=2, worker_init_fn=open_resources, persistent_workers=persistent)
    firsts, pids, seen = [], set(), []
    for epoch in range(3):
        ds.difficulty = epoch  # zh: 比如课程学习：每轮加大难度 | en: say, curriculum learning: harder every epoch
        start = time.perf_counter()
        for k, batch in enumerate(loader):
            if k == 0:
                firsts.append(time.perf_counter() - start)  # zh: 这一轮等第一个批量等了多久 | en: wait for this epoch's first batch
            pids.update(batch[:, 0].tolist())
        seen.append(sorted(set(batch[:, 1].tolist())))
    return firsts, pids, seen


results = {p: run(p) for p in (False, True)}

# %% volatile=true
for persistent, (firsts, _, _) in results.items():
    print(f"persistent_workers={persistent!s:5s}  wait for the first batch, epochs 1-3:",
          "  ".join(f"{s:.2f} s" for s in firsts))

# %%
for persistent, (_, pids, seen) in results.items():
    print(f"persistent_workers={persistent!s:5s}  worker processes over 3 epochs: {len(pids)}"
          f"   difficulty the workers saw in epochs 1-3: {seen}")

# %% raises="ValueError"
# zh: 没有 worker 就谈不上保留 worker
# en: Without workers there is nothing to keep.
DataLoader(Records(), num_workers=0, persistent_workers=True)
