# %%
import torch

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

x = torch.rand(2, 3)                   # on the CPU
y = torch.ones_like(x, device=device)  # created directly on `device`
x = x.to(device)                       # moved to `device`
z = x + y                              # both operands on the same device
print("z:", z)
print("z.device type:", z.device.type)
print("back on CPU as float64:", z.to("cpu", torch.double))

# %%
if torch.cuda.is_available():
    cpu_t = torch.ones(3)
    gpu_t = torch.ones(3, device="cuda")
    try:
        s = cpu_t + gpu_t
    except RuntimeError as e:
        print(type(e).__name__ + ":", e)
else:
    print("No GPU on this machine: every tensor is on the CPU, so devices cannot be mixed here.")
    print("On a GPU machine, cpu_tensor + cuda_tensor raises RuntimeError.")
