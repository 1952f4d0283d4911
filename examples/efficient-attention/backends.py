# %%
import time

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
dtype = torch.float16 if device == "cuda" else torch.float32  # zh: Flash 和 cuDNN 内核要 16 位浮点 | en: the Flash and cuDNN kernels need 16-bit floats

B, n_head, T, hd = 4, 8, 512, 64
q, k, v = (torch.randn(B, n_head, T, hd, device=device, dtype=dtype) for _ in range(3))
print("backends PyTorch knows:", [name for name in SDPBackend.__members__ if name != "ERROR"])

# %%
# zh: 逐个只开一个后端：能跑的和 MATH（按公式一步步算）的结果比较
# en: Enable one backend at a time; compare the ones that run with MATH (the formula, step by step).
with sdpa_kernel(SDPBackend.MATH):
    reference = F.scaled_dot_product_attention(q, k, v, is_causal=True)
available = []
for backend in [SDPBackend.MATH, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION]:
    try:
        with sdpa_kernel(backend):
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        available.append(backend)
        print(f"{backend.name:20s} runs on {device}, max abs difference to MATH {(out - reference).abs().max().item():.1e}")
    except RuntimeError:
        print(f"{backend.name:20s} not available on {device}")

# %% raises="RuntimeError"
# zh: 强制使用一个这台设备上没有的后端：PyTorch 不会悄悄退回，而是报错
# en: Forcing a backend this device lacks: PyTorch does not quietly fall back, it raises.
missing = next(b for b in [SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION, SDPBackend.OVERRIDEABLE]
               if b not in available)
print("forcing", missing.name)
with sdpa_kernel(missing):
    F.scaled_dot_product_attention(q, k, v, is_causal=True)

# %%
# zh: 不写 sdpa_kernel 时，PyTorch 按优先级挑第一个能用的后端。torch._fused_sdp_choice 是它内部做这个选择的函数（私有 API），这里只用来看结果
# en: Without sdpa_kernel, PyTorch picks the first backend that can run, by priority. torch._fused_sdp_choice is the internal function that chooses (a private API); here it only shows the choice.
def choice():
    return SDPBackend(torch._fused_sdp_choice(q, k, v, is_causal=True)).name


print("default choice:", choice())
with sdpa_kernel(SDPBackend.MATH):
    print("inside sdpa_kernel(MATH):", choice())
# zh: MATH 要把 (B, 头数, T, T) 的分数矩阵整个放进内存；融合内核一块一块地算，不存它
# en: MATH materialises the whole (B, heads, T, T) score matrix; the fused kernels work tile by tile and never store it.
print(f"score matrix MATH materialises: {B * n_head * T * T * q.element_size() / 2**20:.0f} MiB")


# %% volatile=true
def timeit(fn, repeat=5):
    fn()  # zh: 预热 | en: warm-up
    if device == "cuda":
        torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        if device == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
    return min(times)


timings = {}
for backend in available:
    with sdpa_kernel(backend):
        timings[backend.name] = timeit(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))
timings["default"] = timeit(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))
for name, seconds in timings.items():
    print(f"{name:20s} {seconds * 1e3:8.2f} ms   {timings['MATH'] / seconds:5.1f}x MATH's speed")
