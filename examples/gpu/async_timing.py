# /// example
# requires = ["cuda"]
# ///
# %%
import time

import torch

torch.manual_seed(0)
n = 8192
a = torch.randn(n, n, device="cuda")
b = torch.randn(n, n, device="cuda")
a @ b  # zh: 预热：第一次调用还要初始化 cuBLAS | en: warm-up: the first call also initialises cuBLAS
torch.cuda.synchronize()

# %% volatile=true
# zh: CUDA 运算是异步的：a @ b 只是把 kernel 放进队列，CPU 立刻继续往下走
# en: CUDA work is asynchronous: a @ b only queues a kernel, and the CPU moves on at once.
t0 = time.perf_counter()
c = a @ b
t_queued = time.perf_counter() - t0
torch.cuda.synchronize()  # zh: 等 GPU 把队列里的活干完 | en: wait until the GPU has finished the queue
t_done = time.perf_counter() - t0
print(f"perf_counter right after a @ b:    {t_queued * 1e3:8.3f} ms  (only queued)")
print(f"perf_counter after synchronize():  {t_done * 1e3:8.3f} ms")

# zh: CUDA 事件在 GPU 的队列里打时间戳，不受 CPU 一侧的影响
# en: CUDA events put timestamps into the GPU's own queue, unaffected by the CPU side.
start = torch.cuda.Event(enable_timing=True)
end = torch.cuda.Event(enable_timing=True)
start.record()
c = a @ b
end.record()
end.synchronize()
ms = start.elapsed_time(end)  # zh: 毫秒 | en: milliseconds
print(f"CUDA events:                       {ms:8.3f} ms")
print(f"=> {2 * n**3 / (ms / 1e3) / 1e12:.1f} TFLOP/s in float32 ({n}x{n} @ {n}x{n})")

# %% volatile=true
# zh: 隐式同步：.item()、print(张量)、.cpu() 都要等 GPU 算完，循环里的 CPU 就不能先跑到前面去
# en: Implicit synchronisation: .item(), print(tensor) and .cpu() wait for the GPU, so the CPU cannot run ahead.
x = torch.randn(4096, 4096, device="cuda")


def run(steps, read_back):
    total = 0.0
    for _ in range(steps):
        y = x @ x
        if read_back:
            total += y[0, 0].item()  # zh: 每一步都等 GPU | en: waits for the GPU at every step
    return total


for read_back in (False, True):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    run(50, read_back)
    t_cpu = time.perf_counter() - t0
    torch.cuda.synchronize()
    t_all = time.perf_counter() - t0
    print(f".item() every step: {read_back!s:5}  loop returned after {t_cpu * 1e3:7.2f} ms, "
          f"GPU done after {t_all * 1e3:7.2f} ms")
