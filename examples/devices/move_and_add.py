# %%
import torch

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

x = torch.rand(2, 3)  # zh: 在 CPU 上 | en: on the CPU
y = torch.ones_like(x, device=device)  # zh: 直接建在 device 上 | en: created directly on `device`
x = x.to(device)  # zh: 移到 device 上 | en: moved to `device`
z = x + y  # zh: 两个操作数在同一设备上 | en: both operands on the same device
print("z:", z)
print("z.device type:", z.device.type)
print("back on CPU as float64:", z.to("cpu", torch.double))

# %%
if torch.accelerator.is_available():
    cpu_t = torch.ones(3)
    acc_t = torch.ones(3, device=device)
    try:
        s = cpu_t + acc_t
    except RuntimeError as e:
        print(type(e).__name__ + ":", e)
else:
    print("No accelerator on this machine: every tensor is on the CPU, so devices cannot be mixed here.")
    print("On a GPU machine, cpu_tensor + gpu_tensor raises RuntimeError.")

# %%
# zh: NumPy 只认识主机内存：加速器上的张量要先 .cpu()，在 CPU 上的张量可以直接 .numpy()
# en: NumPy knows only host memory: a tensor on an accelerator needs .cpu() first; one on the CPU converts directly.
t = torch.arange(3.0, device=device)
try:
    print("t.numpy():", t.numpy())
except TypeError as e:
    print(type(e).__name__ + ":", e)
print("t.cpu().numpy():", t.cpu().numpy())
