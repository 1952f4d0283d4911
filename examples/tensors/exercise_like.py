# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


# zh: 形状为 (n, 1) 的全 0 张量，dtype 和设备与 x 相同
# en: A zero tensor of shape (n, 1) with x's dtype and device.
def zeros_column(x, n):
    return x.new_zeros(n, 1)


for x in [
    torch.randn(2, 3, dtype=torch.float64, device=device),
    torch.arange(4, device=device),
    torch.ones(5, dtype=torch.bfloat16),
]:
    z = zeros_column(x, 4)
    print(f"x: {str(x.dtype):15} {x.device.type:5} -> z: {tuple(z.shape)} {str(z.dtype):15} {z.device.type}")
    assert z.shape == (4, 1) and z.dtype == x.dtype and z.device == x.device

# %%
# zh: *_like 沿用的是形状，new_* 的形状来自参数
# en: *_like keeps the shape; new_* takes the shape from its arguments.
x = torch.arange(6, device=device).view(2, 3)
print("zeros_like(x):", tuple(torch.zeros_like(x).shape), torch.zeros_like(x).dtype)
print("x.new_zeros(3):", tuple(x.new_zeros(3).shape), x.new_zeros(3).dtype)
print("rand_like(x, dtype=float32):", tuple(torch.rand_like(x, dtype=torch.float32).shape))

# %% raises="NotImplementedError"
torch.rand_like(x)  # zh: x 是 int64，rand 只能生成浮点数 | en: x is int64, and rand only makes floats
