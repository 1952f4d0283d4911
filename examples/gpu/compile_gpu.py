# /// example
# requires = ["cuda"]
# timeout = 300
# ///
# %%
import time

import torch
import torch.utils.benchmark as benchmark
from torch import nn

torch.manual_seed(0)


def gelu_chain(x):
    # zh: 一串逐元素运算：即时执行时每一步都要把整个张量读写一遍
    # en: A chain of elementwise operations: in eager mode each one reads and writes the whole tensor.
    return 0.5 * x * (1 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


x = torch.randn(64 * 2**20, device="cuda")  # zh: 256 MiB | en: 256 MiB
compiled_chain = torch.compile(gelu_chain)
t0 = time.perf_counter()
compiled_chain(x)
torch.cuda.synchronize()
print(f"first call of the compiled function: {time.perf_counter() - t0:.1f} s (compiling)")
assert torch.allclose(compiled_chain(x), gelu_chain(x), atol=1e-5)


# %% volatile=true
def measure(stmt, **names):
    # zh: Timer 会在 GPU 上同步，并自动决定重复次数
    # en: Timer synchronises the GPU and picks the number of runs itself.
    return benchmark.Timer(stmt=stmt, globals=names).blocked_autorange(min_run_time=1.0).median


eager = measure("f(x)", f=gelu_chain, x=x)
compiled = measure("f(x)", f=compiled_chain, x=x)
gb = 2 * x.numel() * 4 / 1e9  # zh: 融合后只读一次、写一次 | en: fused, it reads once and writes once
print(f"elementwise chain  eager {eager * 1e3:6.3f} ms   compiled {compiled * 1e3:6.3f} ms   x{eager / compiled:.1f}")
print(f"compiled reaches {gb / compiled:.0f} GB/s of memory traffic (one read + one write)")

# %% volatile=true warns="UserWarning"
# zh: 小模型、小批量：时间主要花在启动 kernel 上；mode="reduce-overhead" 用 CUDA Graphs 一次启动整个步骤
# en: A small model and batch: time goes into launching kernels; mode="reduce-overhead" replays the step as one CUDA graph.
model = nn.Sequential(*[nn.Sequential(nn.Linear(256, 256), nn.ReLU()) for _ in range(8)]).cuda().eval()
small = torch.randn(16, 256, device="cuda")
with torch.no_grad():
    default = torch.compile(model)
    graphs = torch.compile(model, mode="reduce-overhead")
    for f in (default, graphs):
        for _ in range(3):
            f(small)  # zh: 编译并预热 | en: compile and warm up
    t_eager = measure("m(x)", m=model, x=small)
    t_default = measure("m(x)", m=default, x=small)
    t_graphs = measure("m(x)", m=graphs, x=small)
    assert torch.allclose(graphs(small), model(small), atol=1e-4)
print(f"small MLP  eager {t_eager * 1e6:6.1f} us   compiled {t_default * 1e6:6.1f} us   "
      f"reduce-overhead {t_graphs * 1e6:6.1f} us")
