# %%
import torch
from torch import nn


def my_clip_grad_norm(parameters, max_norm):
    grads = [p.grad for p in parameters if p.grad is not None]
    total = torch.sqrt(sum((g**2).sum() for g in grads))
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / (total + 1e-6))  # zh: 就地修改，和 PyTorch 的实现一样 | en: in place, like the real one
    return total


torch.manual_seed(0)
model_a = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 1))
model_b = nn.Sequential(nn.Linear(5, 20), nn.ReLU(), nn.Linear(20, 1))
model_b.load_state_dict(model_a.state_dict())
x, y = torch.randn(32, 5), torch.randn(32, 1) * 50
for m in (model_a, model_b):
    nn.functional.mse_loss(m(x), y).backward()

norm_a = my_clip_grad_norm(list(model_a.parameters()), 0.5)
norm_b = nn.utils.clip_grad_norm_(model_b.parameters(), 0.5)
print(f"norm before clipping: mine {norm_a.item():.4f}, torch {norm_b.item():.4f}")
for pa, pb in zip(model_a.parameters(), model_b.parameters(), strict=True):
    torch.testing.assert_close(pa.grad, pb.grad)
print("clipped gradients match")
