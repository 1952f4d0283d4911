# /// example
# timeout = 120
# ///
# %%
import math
import os
import time

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from sklearn.datasets import load_sample_images
from torch.utils.data import DataLoader, Dataset, get_worker_info

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print("CPU cores:", os.cpu_count(), " torch threads:", torch.get_num_threads())
PATHS = load_sample_images().filenames


class CostlyDataset(Dataset):
    # zh: 故意做得很贵的变换：每次都解码 JPEG，在整张 427x640 的图上旋转，再缩小
    # en: A deliberately costly transform: decode the JPEG every time, rotate the full 427x640 image, then shrink it.
    def __len__(self):
        return 24

    def __getitem__(self, index):
        x = torch.from_numpy(np.array(Image.open(PATHS[index % 2]).convert("RGB"))).permute(2, 0, 1).float() / 255
        a = math.radians(torch.empty(1).uniform_(-10, 10).item())
        h, w = x.shape[1:]
        theta = torch.tensor([[[math.cos(a), -math.sin(a) * h / w, 0.0], [math.sin(a) * w / h, math.cos(a), 0.0]]])
        grid = F.affine_grid(theta, (1, *x.shape), align_corners=False)
        x = F.grid_sample(x.unsqueeze(0), grid, align_corners=False)
        x = F.interpolate(x, size=(128, 128), mode="bilinear", antialias=True, align_corners=False)[0]
        info = get_worker_info()  # zh: 主进程里是 None | en: None in the main process
        return x, -1 if info is None else info.id, torch.get_num_threads()


def epoch_time(step_s=0.0, **kwargs):
    loader = DataLoader(CostlyDataset(), batch_size=4, **kwargs)
    start = time.perf_counter()
    for i, (xb, *_) in enumerate(loader):
        # zh: 有 CUDA 时，锁页内存让这次拷贝可以异步进行
        # en: With CUDA, pinned memory lets this copy run asynchronously.
        xb = xb.to(device, non_blocking=True)
        if i == 0:
            first = time.perf_counter() - start
        time.sleep(step_s)  # zh: 可选：假装在加速器上训练这一批 | en: optional: pretend to train on an accelerator
    return first, time.perf_counter() - start


# %% volatile=true warns="UserWarning"
print("load average over the last minute:", os.getloadavg()[0])
CostlyDataset()[0]  # zh: 先热身一次：第一次调用有一次性的开销 | en: warm up once: the first call has one-off costs
for kwargs in [dict(num_workers=0), dict(num_workers=2), dict(num_workers=2, pin_memory=True)]:
    first, total = epoch_time(**kwargs)
    print(f"{str(kwargs):40s} first batch {first:5.2f} s   epoch {total:5.2f} s   {24 / total:5.1f} images/s")
threads = torch.get_num_threads()
torch.set_num_threads(1)
first, total = epoch_time(num_workers=0)
print(f"{'num_workers=0, torch.set_num_threads(1)':40s} first batch {first:5.2f} s   "
      f"epoch {total:5.2f} s   {24 / total:5.1f} images/s")
torch.set_num_threads(threads)

# %% volatile=true
# zh: 模拟加速器上的训练：每个批量 sleep 0.15 s，这段时间 CPU 空着；主进程用一个线程
# en: Simulated accelerator training: sleep 0.15 s per batch, leaving the CPU idle; one thread in the main process.
torch.set_num_threads(1)
for workers in (0, 2):
    first, total = epoch_time(step_s=0.15, num_workers=workers)
    print(f"num_workers={workers} + 6 steps of 0.15 s: epoch {total:5.2f} s")
torch.set_num_threads(threads)

# %%
# zh: 每个批量由哪个进程做的、那里的 torch 用几个线程
# en: Which process built each batch, and how many threads torch uses there.
loader = DataLoader(CostlyDataset(), batch_size=4, num_workers=2)
for i, (_, worker, threads) in enumerate(loader):
    if i < 4:
        print(f"batch {i} from worker", worker.tolist(), " torch threads there:", threads.tolist())

# %% warns="UserWarning"
# zh: pin_memory 把批量放进锁页内存，只对拷到 CUDA 设备有用
# en: pin_memory puts batches in page-locked memory, which only helps copies to a CUDA device.
xb, *_ = next(iter(DataLoader(CostlyDataset(), batch_size=4, pin_memory=True)))
print("CUDA available:", torch.cuda.is_available(), " batch is pinned:", xb.is_pinned())
