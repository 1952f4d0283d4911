# %%
import torch

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

x = torch.zeros(5, 3, dtype=torch.long, device=device)
y = x.new_ones(5, 3, dtype=torch.double)  # zh: 沿用 x 的设备，dtype 被覆盖 | en: keeps x's device; dtype overridden
print("y:\n", y)
print("y dtype:", y.dtype, "device type:", y.device.type)

k = x.new_ones(2)  # zh: 什么都不覆盖：dtype 和设备同 x，形状是新的 | en: nothing overridden: same dtype and device as x, new shape
print("k:", k, "dtype:", k.dtype)

# %%
r = torch.randn_like(y, dtype=torch.float)  # zh: y 的形状和设备，新的 dtype | en: y's shape and device, new dtype
print("r:\n", r)
print("r dtype:", r.dtype)
o = torch.ones_like(r)                      # zh: r 的形状、dtype 和设备 | en: r's shape, dtype and device
print("ones_like shape:", o.shape, "dtype:", o.dtype)

# %%
t = torch.rand(3, 4, device=device)
print("t.size():", t.size())
print("t.shape: ", t.shape)
print("equal:", t.size() == t.shape, " type:", type(t.shape).__name__,
      " is a tuple:", isinstance(t.shape, tuple))
print("t.size(1):", t.size(1), " t.shape[1]:", t.shape[1])
print("numel:", t.numel(), " ndim:", t.ndim)
print("dtype:", t.dtype)
print("device type:", t.device.type)
