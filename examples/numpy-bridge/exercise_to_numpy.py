# %%
import numpy as np
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


# zh: 任何张量 -> 从不与 x 共享内存的 NumPy 数组
# en: Any tensor -> a NumPy array that never shares memory with x.
def to_numpy(x):
    x = x.detach()
    if x.dtype == torch.bfloat16:
        x = x.float()  # zh: NumPy 没有 bfloat16；转成 float32 是精确的 | en: NumPy has no bfloat16; float32 holds it exactly
    return x.cpu().numpy().copy()


w = torch.ones(3, device=device, requires_grad=True)
tests = [
    ("requires grad", w),
    ("bfloat16", torch.tensor([1.5, 2.25], dtype=torch.bfloat16, device=device)),
    ("int8", torch.tensor([-1, 2], dtype=torch.int8, device=device)),
    ("plain float32", torch.zeros(2, device=device)),
]
for name, t in tests:
    arr = to_numpy(t)
    print(f"{name:14} {str(t.dtype):15} -> {type(arr).__name__} {arr.dtype}: {arr}")
    assert isinstance(arr, np.ndarray)
    assert np.array_equal(arr, t.detach().float().cpu().numpy())

# %%
# zh: 返回的数组是独立的副本：就地修改 w 之后它不变
# en: The array is an independent copy: an in-place change to w leaves it alone.
arr = to_numpy(w)
with torch.no_grad():
    w.mul_(5)
print("w:", w.detach().cpu(), " arr:", arr)
assert (arr == 1).all()
