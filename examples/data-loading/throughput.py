# %% volatile=true
import os
import time
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
torch.set_num_threads(1)  # zh: 只看数据加载，不让算子的线程来凑热闹 | en: measure loading alone, with no operator threads
print("CPU cores:", os.cpu_count(), " worker start method:", mp.get_start_method())


def python_work():
    # zh: 纯 Python 计算（比如解析文本、逐个处理样本）：执行期间一直持有 GIL
    # en: Pure Python computation (parsing text, per-sample logic): holds the GIL all the time.
    return sum(i * i % 7 for i in range(24_000))


def waiting():
    # zh: 等待（比如读磁盘、网络）：time.sleep 释放 GIL，也不占 CPU
    # en: Waiting (reading a disk or the network): time.sleep releases the GIL and uses no CPU.
    time.sleep(0.003)
    return 0


class Items(Dataset):
    def __init__(self, work, n=96):
        self.work, self.n = work, n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return torch.tensor([i, self.work()])


def cpu_seconds():
    # zh: 本进程和已结束的子进程（worker）用掉的 CPU 时间
    # en: CPU time used by this process and by its finished children (the workers).
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def measure(work, num_workers, repeats=2):
    # zh: 机器很吵：重复两次，取较快的一次
    # en: The machine is noisy: run twice and keep the faster run.
    runs = []
    for _ in range(repeats):
        loader = DataLoader(Items(work), batch_size=8, num_workers=num_workers)
        t0, c0 = time.perf_counter(), cpu_seconds()
        it = iter(loader)  # zh: 在这里启动 worker 进程 | en: the worker processes start here
        next(it)  # zh: 不计第一个批量：启动的开销下一节再说 | en: skip the first batch: start-up is the next section's topic
        start = time.perf_counter()
        n = sum(len(batch) for batch in it)  # zh: 读完之后 worker 已经退出 | en: once exhausted, the workers have exited
        end = time.perf_counter()
        # zh: 平均有几个核在忙：CPU 时间除以墙上时间（整个轮次）
        # en: How many cores were busy on average: CPU time over wall time (the whole epoch).
        runs.append((n / (end - start), (cpu_seconds() - c0) / (end - t0)))
    return max(runs)


start = time.perf_counter()
python_work()
print(f"one python_work item: {1000 * (time.perf_counter() - start):.1f} ms   one waiting item: 3 ms of sleep")

# %% volatile=true warns="UserWarning"
print("load average over the last minute:", round(os.getloadavg()[0], 2))
for work in (python_work, waiting):
    base = None
    for w in (0, 1, 2, 4):
        rate, busy = measure(work, w)
        base = base or rate
        print(f"{work.__name__:12s} num_workers={w}  {rate:6.0f} items/s  {rate / base:4.1f}x   cores busy {busy:4.2f}")

# %% volatile=true
# zh: 同样的工作交给线程：GIL 让纯 Python 计算无法并行，等待却可以
# en: The same work on threads: the GIL keeps pure Python from running in parallel, but waiting overlaps.
for work in (python_work, waiting):
    results = []
    for threads in (1, 2):
        runs = []
        for _ in range(2):
            t0, c0 = time.perf_counter(), time.process_time()
            with ThreadPoolExecutor(threads) as pool:
                list(pool.map(Items(work).__getitem__, range(96)))  # zh: 线程各取一些下标 | en: the threads share the indices
            wall = time.perf_counter() - t0
            runs.append((96 / wall, (time.process_time() - c0) / wall))
        results.append(max(runs))
    (r1, b1), (r2, b2) = results
    print(f"{work.__name__:12s} 1 thread {r1:5.0f} items/s   2 threads {r2:5.0f} items/s   {r2 / r1:.1f}x   "
          f"cores busy with 2 threads {b2:4.2f}")
