# /// example
# timeout = 300
# ///
# %%
import statistics
import time

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
x = torch.randn(8, 16, device=device)

compiled = torch.compile(model)  # zh: 默认后端 "inductor"，生成 C++/Triton 代码 | en: default backend "inductor" (generates C++/Triton code)
print("type:", type(compiled).__name__)


def sync():
    # zh: GPU 上的运算是异步的：计时前后要等它算完
    # en: GPU work is asynchronous: wait for it before reading the clock.
    if torch.accelerator.is_available():
        torch.accelerator.synchronize()


def first_call_s(fn, arg):
    sync()
    t0 = time.perf_counter()
    fn(arg)
    sync()
    return time.perf_counter() - t0


def median_ms(fn, arg, calls=30, warmup=3):
    # zh: 先预热几次，再取多次调用耗时的中位数，输入始终相同
    # en: Warm up first, then take the median over many calls with the same input.
    for _ in range(warmup):
        fn(arg)
    times = []
    for _ in range(calls):
        sync()
        t0 = time.perf_counter()
        fn(arg)
        sync()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


# %% volatile=true warns="UserWarning"
# zh: 第一次调用包含编译，单独计时
# en: The first call includes compiling: time it on its own.
print(f"first call of compiled model (compiles): {first_call_s(compiled, x):.2f} s")
eager_ms, compiled_ms = median_ms(model, x), median_ms(compiled, x)
print(f"tiny MLP, median of 30 calls: eager {eager_ms:.3f} ms, compiled {compiled_ms:.3f} ms")

# %%
print("same result as eager:", torch.allclose(compiled(x), model(x), atol=1e-6))


# %%
# zh: 一串逐元素运算：eager 每个运算各遍历一次内存，inductor 把它们融合成一个循环
# en: A chain of elementwise ops: eager walks memory once per op, inductor fuses them into one loop.
def pointwise(t):
    return nn.functional.gelu(t) * torch.sigmoid(t) + torch.sin(t) ** 2 - torch.tanh(t)


big = torch.randn(1_000_000, device=device)
compiled_pointwise = torch.compile(pointwise)
print("same result as eager:", torch.allclose(compiled_pointwise(big), pointwise(big), atol=1e-5))

# %% volatile=true
eager_ms, compiled_ms = median_ms(pointwise, big), median_ms(compiled_pointwise, big)
print(f"pointwise chain on 1M elements, median of 30 calls: eager {eager_ms:.2f} ms, "
      f"compiled {compiled_ms:.2f} ms ({eager_ms / compiled_ms:.1f}x faster)")


# %%
# zh: 依赖数据的控制流
# en: Data-dependent control flow.
def f(x):
    if x.sum() > 0:
        return x * 2
    return -x


pos = torch.ones(3, device=device)
cf = torch.compile(f, backend="eager")  # zh: "eager" 只捕获计算图，不生成代码 | en: "eager": capture graphs, skip code generation
print("compiled f(pos):", cf(pos), " f(-pos):", cf(-pos))
report = torch._dynamo.explain(f)(pos)
print("graphs:", report.graph_count, " graph breaks:", report.graph_break_count)

# %% raises="Unsupported"
torch.compile(f, fullgraph=True, backend="eager")(pos)
