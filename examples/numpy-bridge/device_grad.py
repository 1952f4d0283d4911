# %%
import torch

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.rand(3, device=device)
a = x.cpu().numpy()  # on a GPU: copy to host first; on CPU: no-op
print("device:", x.device, "->", a, a.dtype)

# %%
w = torch.ones(3, requires_grad=True)
a = w.detach().numpy()  # detach: same data, no autograd history
print("w.detach().numpy():", a)
with torch.no_grad():
    w.mul_(2)
print("after w.mul_(2) under no_grad:", a)

# %%
print("w.numpy(force=True):", w.numpy(force=True))

# %% raises="RuntimeError"
a = w.numpy()
