# %%
import torch

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.rand(3, device=device)
a = x.cpu().numpy()  # zh: 在 GPU 上先复制到主机内存；在 CPU 上什么都不做 | en: on a GPU: copy to host first; on CPU: no-op
print("device:", x.device, "->", a, a.dtype)

# %%
w = torch.ones(3, requires_grad=True)
a = w.detach().numpy()  # zh: detach：同一份数据，没有求导历史 | en: detach: same data, no autograd history
print("w.detach().numpy():", a)
with torch.no_grad():
    w.mul_(2)
print("after w.mul_(2) under no_grad:", a)

# %%
print("w.numpy(force=True):", w.numpy(force=True))

# %% raises="RuntimeError"
a = w.numpy()
