# %%
import os

import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def show_flags():
    print("  use_deterministic_algorithms:", torch.are_deterministic_algorithms_enabled(),
          "  warn_only:", torch.is_deterministic_algorithms_warn_only_enabled())
    print("  cudnn.deterministic:", torch.backends.cudnn.deterministic, "  cudnn.benchmark:", torch.backends.cudnn.benchmark)
    print("  CUBLAS_WORKSPACE_CONFIG:", os.environ.get("CUBLAS_WORKSPACE_CONFIG"))


print("defaults:")
show_flags()
torch.use_deterministic_algorithms(True)
torch.backends.cudnn.benchmark = False  # zh: 不按速度挑选卷积算法 | en: do not pick convolution algorithms by speed
torch.backends.cudnn.deterministic = True  # zh: 只用确定性的 cuDNN 卷积 | en: only deterministic cuDNN convolutions
print("after switching determinism on:")
show_flags()

# %% raises="RuntimeError"
# zh: put_ 遇到重复的下标时，哪一次写入留下来没有保证：它没有确定性的实现，于是直接报错
# en: With repeated indices, put_ does not say which write survives: it has no deterministic implementation, so it raises.
x = torch.zeros(5, device=device)
index = torch.tensor([1, 1, 3], device=device)
values = torch.tensor([10.0, 20.0, 30.0], device=device)
x.put_(index, values)

# %%
import warnings

# zh: warn_only=True：照样执行，只发出警告
# en: warn_only=True: the op runs anyway, with a warning.
torch.use_deterministic_algorithms(True, warn_only=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("put_ with warn_only:", torch.zeros(5, device=device).put_(index, values).tolist())
print("warning:", str(caught[0].message).split(" You can")[0])
torch.use_deterministic_algorithms(True)

# zh: 有确定性实现的替代写法：index_put_（即 x[index] = values），重复下标时最后一次写入生效
# en: A replacement with a deterministic implementation: index_put_ (x[index] = values); the last write wins.
x = torch.zeros(5, device=device)
x[index] = values
print("x[index] = values:  ", x.tolist())

# %%
# zh: 确定性模式下，torch.empty 等函数不再返回内存里残留的内容，而是填上 NaN（整数填最大值）
# en: In deterministic mode, torch.empty and friends no longer hand back leftover memory: they fill it with NaN (integers: the max value).
print("fill_uninitialized_memory:", torch.utils.deterministic.fill_uninitialized_memory)
print(torch.empty(4, device=device))
print(torch.empty(2, dtype=torch.int64, device=device))

# %%
# zh: 旧版 torch 在确定性模式下要求 cuBLAS 先设置 CUBLAS_WORKSPACE_CONFIG，否则报错；现在不再检查
# en: Older versions of torch raised in deterministic mode unless CUBLAS_WORKSPACE_CONFIG was set for cuBLAS; the check is gone.
if device == "cuda":
    a = torch.randn(64, 64, device=device)
    try:
        a @ a
        print("matmul ran, CUBLAS_WORKSPACE_CONFIG =", os.environ.get("CUBLAS_WORKSPACE_CONFIG"))
    except RuntimeError as e:
        print("RuntimeError:", str(e).split(". ")[0])
else:
    a = torch.randn(64, 64, device=device)
    print(f"{device}: no cuBLAS, matmul runs; max |a @ a - a @ a| =", (a @ a - a @ a).abs().max().item())
torch.use_deterministic_algorithms(False)
