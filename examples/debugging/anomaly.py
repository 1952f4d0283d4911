# %%
import torch

x = torch.tensor([-1.0, 4.0], requires_grad=True)
# sqrt only where x > 0: the forward value is fine ...
y = torch.where(x > 0, torch.sqrt(x), 0.0).sum()
y.backward()
print("y =", y.item())
# ... but the gradient is not
print("x.grad =", x.grad)

# %% raises="RuntimeError"
# anomaly mode checks every backward function's output and names the one that made a NaN
x = torch.tensor([-1.0, 4.0], requires_grad=True)
with torch.autograd.set_detect_anomaly(True):
    y = torch.where(x > 0, torch.sqrt(x), 0.0).sum()
    y.backward()

# %%
# the fix: give sqrt only safe inputs, then select
x = torch.tensor([-1.0, 4.0], requires_grad=True)
safe = torch.where(x > 0, x, 1.0)
y = torch.where(x > 0, torch.sqrt(safe), 0.0).sum()
y.backward()
print("y =", y.item(), " x.grad =", x.grad)
