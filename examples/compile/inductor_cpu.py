# /// example
# timeout = 120
# ///
# %%
import re
import statistics
import time

import torch
import torch._inductor.config
from torch._inductor.utils import run_and_get_code

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def rms_norm(x, weight, eps=1e-6):
    # zh: eager 模式下是六个运算，其中四个读写整个张量（add 和 rsqrt 只作用于每行的统计量）
    # en: Six operations in eager mode, four of them over the whole tensor (add and rsqrt act on each row's statistic).
    return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps) * weight


# zh: 只有一个内核要编译：就在本进程里编译，不必先启动一组编译工作进程
# en: A single kernel to compile: compile it in this process rather than starting a pool of compile workers first.
torch._inductor.config.compile_threads = 1
x = torch.randn(4096, 512, device=device)
weight = torch.randn(512, device=device)
compiled = torch.compile(rms_norm)  # zh: 默认后端 inductor | en: the default backend, inductor


def sync():
    if torch.accelerator.is_available():
        torch.accelerator.synchronize()


def median_ms(fn, calls=20):
    fn(x, weight)  # zh: 预热 | en: warm-up
    times = []
    for _ in range(calls):
        sync()
        t0 = time.perf_counter()
        fn(x, weight)
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


# %% volatile=true
# zh: 第一次调用：捕获、生成代码、编译（CPU 上由 C++ 编译器编译）。run_and_get_code 顺便拿到生成的代码
# en: The first call captures, generates code and compiles it (with the C++ compiler on a CPU).
# en: run_and_get_code also hands back the generated code.
t0 = time.perf_counter()
out, (code,) = run_and_get_code(compiled, x, weight)
sync()
first_s = time.perf_counter() - t0
print(f"first call (compiles): {first_s:.1f} s")

# %%
kernels = re.findall(r"^(\w+) = async_compile\.", code, flags=re.MULTILINE)
print("generated kernels:", kernels)
print("same as eager:", torch.allclose(out, rms_norm(x, weight), atol=1e-5))

# %% volatile=true
eager_ms, compiled_ms = median_ms(rms_norm), median_ms(compiled)
print(f"median of 20 calls: eager {eager_ms:.2f} ms, compiled {compiled_ms:.2f} ms "
      f"({eager_ms / compiled_ms:.1f}x faster)")
if compiled_ms < eager_ms:
    print(f"calls needed to earn back the compile time: {first_s * 1e3 / (eager_ms - compiled_ms):.0f}")
else:
    print("not faster here: the compile time is never earned back")

# %% volatile=true
# zh: 忘掉进程里的编译结果再编译一次：inductor 的磁盘缓存命中，不用再跑 C++ 编译器
# en: Forget the process's compilations and compile again: inductor's on-disk cache hits, no C++ compiler run.
torch._dynamo.reset()
t0 = time.perf_counter()
torch.compile(rms_norm)(x, weight)
sync()
print(f"compile again after torch._dynamo.reset(): {time.perf_counter() - t0:.2f} s")
