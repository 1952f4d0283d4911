# %%
import torch

print("accelerator available:", torch.accelerator.is_available())
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
device = torch.device(device)  # zh: 需要设备对象时包一层 | en: wrap it when a device object is needed
print("device:", device, " type:", device.type)
if torch.accelerator.is_available():
    print("device count:", torch.accelerator.device_count())

# %%
torch.manual_seed(0)
a = torch.zeros(2, 3, device=device)  # zh: 直接建在设备上 | en: created directly on the device
b = torch.rand(2, 3)  # zh: 默认建在 CPU 上 | en: created on the CPU (the default)
print("a.device type:", a.device.type, " b.device type:", b.device.type)

b.to(torch.float64)  # zh: 返回新张量，b 不变 | en: returns a NEW tensor; b is unchanged
print("b.dtype after b.to(torch.float64):", b.dtype)
b = b.to(device)  # zh: 要把结果赋值回去 | en: assign the result
print("b.device type after b = b.to(device):", b.device.type)

# %%
c = b.to("cpu", torch.double)  # zh: 一次指定设备和类型 | en: device and dtype in one call
print("c:", c)
print("c.device:", c.device, " c.dtype:", c.dtype)
print("c.to(c.device) is c:", c.to(c.device) is c)  # zh: 无需改变：返回同一个张量 | en: nothing to change: same tensor
d = a.to(c)  # zh: 跟随另一个张量的设备和类型 | en: match another tensor's device and dtype
print("d.device:", d.device, " d.dtype:", d.dtype)

# zh: .cpu() 对任何设备上的张量都能用；张量已经在 CPU 上时，返回的就是它自己
# en: .cpu() works on a tensor on any device; for a tensor already on the CPU it returns the tensor itself.
print("a.cpu().device:", a.cpu().device, " c.cpu() is c:", c.cpu() is c)
if torch.cuda.is_available():
    print(".cuda() device:", c.cuda().device)  # zh: .cuda() 才是 CUDA 专用的简写 | en: .cuda() is the CUDA-only shorthand
