# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Linear(3, 2).to(device)
x = torch.randn(8, 3, device=device) * 10
target = torch.randn(8, 2, device=device)
clip = 0.5


def grads():
    model.zero_grad()
    nn.functional.mse_loss(model(x), target).backward()
    return [p.grad.clone() for p in model.parameters()]


plain = grads()
# zh: 给每个参数挂一个张量钩子：返回截断后的梯度，替换原来的梯度
# en: One tensor hook per parameter: it returns the clamped gradient, which replaces the original.
handles = [p.register_hook(lambda g: g.clamp(-clip, clip)) for p in model.parameters()]
hooked = grads()
for name, g0, g1 in zip(["weight", "bias"], plain, hooked, strict=True):
    print(f"{name}: largest |grad| without hook {g0.abs().max():.3f}, with hook {g1.abs().max():.3f}")

# %%
# zh: 核对：和先算梯度、再用 clip_grad_value_ 截断的结果完全相同
# en: Check: identical to computing the gradients first and clipping them with clip_grad_value_.
for h in handles:
    h.remove()
grads()
nn.utils.clip_grad_value_(model.parameters(), clip)
print("same as clip_grad_value_:", all(torch.equal(p.grad, g) for p, g in zip(model.parameters(), hooked, strict=True)))
print("same as clamping by hand:", all(torch.equal(g.clamp(-clip, clip), h) for g, h in zip(plain, hooked, strict=True)))
print("unchanged after remove():", all(torch.equal(a, b) for a, b in zip(grads(), plain, strict=True)))
