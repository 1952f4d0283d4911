# %%
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 只有要拷到加速器上时，锁页内存才有用；没有加速器时打开它只会得到一个警告
# en: Pinned memory only helps copies to an accelerator; without one, asking for it only earns a warning.
pin = torch.accelerator.is_available()
print("device:", device, " pin_memory:", pin)

ds = TensorDataset(torch.randn(1024, 3, 64, 64))  # zh: 每个批量 64 x 3 x 64 x 64 个 float32，约 3 MB | en: 64 x 3 x 64 x 64 float32 per batch, about 3 MB
loader = DataLoader(ds, batch_size=64, num_workers=2, pin_memory=pin, persistent_workers=True)
(xb,) = next(iter(loader))
print("batch is pinned:", xb.is_pinned())
moved = xb.to(device, non_blocking=True)
print("moved to", moved.device, " same tensor as before (no copy at all):", moved is xb)


# %% volatile=true
def epoch(pin_memory):
    # zh: 记下 CPU 在 .to() 里等了多久：non_blocking 的拷贝只有源是锁页内存时才真正异步
    # en: Time the CPU spends inside .to(): a non_blocking copy is truly asynchronous only from pinned memory.
    loader = DataLoader(ds, batch_size=64, num_workers=2, pin_memory=pin_memory)
    in_to, total = 0.0, 0.0
    for (xb,) in loader:
        start = time.perf_counter()
        xb = xb.to(device, non_blocking=True)
        in_to += time.perf_counter() - start
        total += (xb * 2).sum().item()  # zh: .item() 等 GPU 算完 | en: .item() waits for the GPU
    return in_to


if pin:
    for pin_memory in (False, True):
        epoch(pin_memory)  # zh: 热身 | en: warm-up
        print(f"pin_memory={pin_memory!s:5s}  time inside .to() per epoch: {1000 * epoch(pin_memory):.2f} ms")
else:
    print("no accelerator: nothing to copy, so nothing to measure here (a capture on a GPU machine times it)")
