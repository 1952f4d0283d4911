# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1)).to(device)
x = torch.randn(16, 4, device=device, requires_grad=True)
target = torch.randn(16, 1, device=device)


def report(name):
    def hook(module, grad_input, grad_output):
        # zh: grad_output：对模块输出的梯度
        # zh: grad_input：对模块输入的梯度（不需要时为 None）
        # en: grad_output: gradient w.r.t. the module's output
        # en: grad_input: gradient w.r.t. the module's input (None if not needed)
        gin = [None if g is None else tuple(g.shape) for g in grad_input]
        print(f"{name}: grad_output {tuple(grad_output[0].shape)}, "
              f"|grad_output| = {grad_output[0].norm():.4f}, grad_input {gin}")
    return hook


handles = [m.register_full_backward_hook(report(f"{i} {type(m).__name__}"))
           for i, m in enumerate(model)]
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
for h in handles:
    h.remove()

# %%
# zh: 钩子返回一个元组，就会替换 grad_input（这里乘以 0.5）
# en: Returning a tuple from the hook replaces grad_input (here: scaled by 0.5).
model.zero_grad()
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
g_plain = model[0].weight.grad.clone()

h = model[1].register_full_backward_hook(
    lambda m, gin, gout: tuple(None if g is None else 0.5 * g for g in gin))
model.zero_grad()
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
h.remove()
print("first-layer grad scaled by 0.5:",
      torch.allclose(model[0].weight.grad, 0.5 * g_plain))

# %% warns="UserWarning"
import warnings

# zh: 输入不需要梯度时，第一层的 grad_input 是 (None,)，还有一条 UserWarning
# en: When the input needs no gradient, the first layer's grad_input is (None,), with a UserWarning.
seen = []
h = model[0].register_full_backward_hook(lambda m, gin, gout: seen.append(gin))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    nn.functional.mse_loss(model(x.detach()), target).backward()
h.remove()
print("grad_input of layer 0:", seen[0])
for w in caught:
    print(f"{w.category.__name__}: {w.message}")

# %% warns="FutureWarning"
# zh: 旧接口 register_backward_hook 挂在包含多个运算的模块上：FutureWarning
# en: The old register_backward_hook on a module with several operations: a FutureWarning.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    h = model.register_backward_hook(lambda m, gin, gout: None)
    nn.functional.mse_loss(model(x), target).backward()
h.remove()
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
