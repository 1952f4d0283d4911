# /// example
# requires = ["cuda"]
# ///
# %%
import time

import torch

torch.manual_seed(0)
pageable = torch.randn(64 * 2**20)  # zh: 256 MiB 的 float32，普通（可分页）内存 | en: 256 MiB of float32 in ordinary (pageable) memory
pinned = pageable.pin_memory()  # zh: 复制到锁页内存 | en: a copy in page-locked (pinned) memory
print("pageable.is_pinned():", pageable.is_pinned(), " pinned.is_pinned():", pinned.is_pinned())
gib = pageable.numel() * pageable.element_size() / 2**30


def copy_time(src, non_blocking=False, repeats=5):
    """Best time of src.to('cuda'), in seconds, measured with CUDA events."""
    src.to("cuda", non_blocking=non_blocking)  # zh: 预热 | en: warm-up
    best = float("inf")
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        src.to("cuda", non_blocking=non_blocking)
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3)
    return best


# %% volatile=true
# zh: 主机 → GPU 的带宽：锁页内存可以直接用 DMA 传输，可分页内存要先经过驱动的中转缓冲区
# en: Host-to-GPU bandwidth: pinned memory goes straight by DMA; pageable memory passes through a staging buffer.
for name, src in [("pageable", pageable), ("pinned", pinned)]:
    t = copy_time(src)
    print(f"{name:8}  {t * 1e3:7.2f} ms  {gib / t:6.1f} GiB/s")

# %% volatile=true
# zh: non_blocking=True：从锁页内存复制时，调用立即返回，CPU 可以接着准备下一批数据
# en: non_blocking=True: from pinned memory the call returns at once, and the CPU can prepare the next batch.
for name, src in [("pageable", pageable), ("pinned", pinned)]:
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    dst = src.to("cuda", non_blocking=True)
    t_return = time.perf_counter() - t0
    torch.cuda.synchronize()
    t_done = time.perf_counter() - t0
    assert torch.equal(dst.cpu(), src)  # zh: 同步之后数据完整 | en: after synchronising, the data is complete
    print(f"{name:8}  .to('cuda', non_blocking=True) returned after {t_return * 1e3:7.3f} ms, copy done after {t_done * 1e3:7.2f} ms")

# %% volatile=true
# zh: 重叠：在另一个 CUDA 流上复制下一批，同时在默认流上计算这一批
# en: Overlap: copy the next batch on a side stream while the default stream computes on this one.
w = torch.randn(4096, 4096, device="cuda")
h = torch.randn(4096, 4096, device="cuda")
copy_stream = torch.cuda.Stream()


def step(overlap):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    if overlap:
        with torch.cuda.stream(copy_stream):
            nxt = pinned.to("cuda", non_blocking=True)
    else:
        nxt = pinned.to("cuda")
    for _ in range(10):
        out = h @ w  # zh: 这一批的计算 | en: this batch's compute
    torch.cuda.current_stream().wait_stream(copy_stream)  # zh: 用 nxt 之前先等复制完成 | en: wait for the copy before using nxt
    torch.cuda.synchronize()
    return time.perf_counter() - t0, nxt, out


step(True)
for overlap in (False, True):
    t = min(step(overlap)[0] for _ in range(3))
    print(f"copy 256 MiB + 10 matmuls, overlapped: {overlap!s:5}  {t * 1e3:7.2f} ms")
