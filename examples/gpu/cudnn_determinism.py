# /// example
# requires = ["cuda"]
# timeout = 180
# ///
# %% volatile=true
import os
import time

import torch
from torch import nn

torch.manual_seed(0)
conv = nn.Sequential(nn.Conv2d(3, 64, 7, padding=3), nn.ReLU(), nn.Conv2d(64, 64, 5, padding=2)).cuda()
images = torch.randn(64, 3, 128, 128, device="cuda")


def timings(n=5):
    """Milliseconds of each of the first n forward passes."""
    out = []
    for _ in range(n):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        with torch.no_grad():
            conv(images)
        torch.cuda.synchronize()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


# zh: benchmark=True：每遇到一种新的输入形状，cuDNN 先把几种卷积算法都试一遍，记住最快的
# en: benchmark=True: for each new input shape, cuDNN first tries several convolution algorithms and keeps the fastest.
for flag in (False, True):
    torch.backends.cudnn.benchmark = flag
    images = torch.randn(64, 3, 128 + int(flag), 128, device="cuda")  # zh: 新形状，避开已有的缓存 | en: a new shape, so nothing is cached yet
    print(f"cudnn.benchmark = {flag!s:5}  first passes (ms):", "  ".join(f"{t:7.2f}" for t in timings()))
torch.backends.cudnn.benchmark = False

# %%
# zh: 用原子加法累加的运算，在 GPU 上每次加的顺序都可能不同，浮点结果就差在最后几位
# en: Operations that accumulate with atomic adds may add in a different order each run, so float results differ in the last bits.
torch.manual_seed(0)
index = torch.randint(0, 10, (1_000_000,), device="cuda")
values = torch.randn(1_000_000, device="cuda")


def index_add():
    return torch.zeros(10, device="cuda").index_add_(0, index, values)


runs = [index_add() for _ in range(5)]
print("identical to the first run:", [torch.equal(runs[0], r) for r in runs[1:]])
print("largest difference:", max((runs[0] - r).abs().max().item() for r in runs[1:]))

# %%
# zh: 确定性模式：有确定性实现的运算改用它。旧版 torch 还要求为 cuBLAS 设置 CUBLAS_WORKSPACE_CONFIG，下面看这个版本是否检查
# en: Deterministic mode: operations that have a deterministic implementation switch to it. Older versions of torch also
# en: required CUBLAS_WORKSPACE_CONFIG for cuBLAS; see whether this version checks it.
torch.use_deterministic_algorithms(True)
runs = [index_add() for _ in range(5)]
print("deterministic: identical to the first run:", [torch.equal(runs[0], r) for r in runs[1:]])
try:
    torch.randn(64, 64, device="cuda") @ torch.randn(64, 64, device="cuda")
    print("matmul ran; CUBLAS_WORKSPACE_CONFIG =", os.environ.get("CUBLAS_WORKSPACE_CONFIG"))
except RuntimeError as e:
    print("matmul:", type(e).__name__ + ":", str(e).splitlines()[0][:200])

# %%
# zh: 没有确定性实现的运算，在确定性模式下直接报错，而不是悄悄给出不可复现的结果
# en: Operations with no deterministic implementation raise in deterministic mode instead of silently giving irreproducible results.
checks = {
    "torch.histc": lambda: torch.histc(values, bins=10),
    "torch.kthvalue": lambda: torch.kthvalue(values, 3),
    "AdaptiveAvgPool2d backward": lambda: nn.AdaptiveAvgPool2d(3)(torch.randn(1, 1, 8, 8, device="cuda",
                                                                            requires_grad=True)).sum().backward(),
}
for name, fn in checks.items():
    try:
        fn()
        print(f"{name}: ran")
    except RuntimeError as e:
        print(f"{name}: RuntimeError: {str(e).splitlines()[0][:160]}")
torch.use_deterministic_algorithms(False)
