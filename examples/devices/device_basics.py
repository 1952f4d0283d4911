# %%
import torch

print("CUDA available:", torch.cuda.is_available())
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device, " type:", device.type)
if torch.cuda.is_available():
    print("GPU count:", torch.cuda.device_count())

# %%
torch.manual_seed(0)
a = torch.zeros(2, 3, device=device)  # created directly on the device
b = torch.rand(2, 3)                  # created on the CPU (the default)
print("a.device type:", a.device.type, " b.device type:", b.device.type)

b.to(torch.float64)                   # returns a NEW tensor; b is unchanged
print("b.dtype after b.to(torch.float64):", b.dtype)
b = b.to(device)                      # assign the result
print("b.device type after b = b.to(device):", b.device.type)

# %%
c = b.to("cpu", torch.double)         # device and dtype in one call
print("c:", c)
print("c.device:", c.device, " c.dtype:", c.dtype)
print("c.to(c.device) is c:", c.to(c.device) is c)  # nothing to change: same tensor
d = a.to(c)                           # match another tensor's device and dtype
print("d.device:", d.device, " d.dtype:", d.dtype)
if torch.cuda.is_available():
    print(".cuda() device:", c.cuda().device, " .cpu() device:", c.cuda().cpu().device)
