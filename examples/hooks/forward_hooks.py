# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Sequential(
    nn.Linear(4, 8),
    nn.ReLU(),
    nn.Linear(8, 3),
).to(device)

activations = {}


def save_output(name):
    def hook(module, inputs, output):
        activations[name] = output.detach()
    return hook


handles = [m.register_forward_hook(save_output(name))
           for name, m in model.named_children()]

x = torch.randn(2, 4, device=device)
out = model(x)
for name, act in activations.items():
    print(f"layer {name} ({type(model[int(name)]).__name__}): shape {tuple(act.shape)}")
print("fraction of zeros after ReLU:", (activations["1"] == 0).float().mean().item())

# %%
for h in handles:
    h.remove()
activations.clear()
model(x)
print("captured after remove():", len(activations))

# %%
# zh: 前向预钩子在 forward() 之前拿到输入，也可以替换它
# en: A forward pre-hook sees (and may replace) the inputs before forward() runs.
def zero_input(module, inputs):
    (inp,) = inputs
    print("pre-hook got input of shape", tuple(inp.shape))
    return (torch.zeros_like(inp),)


h = model[0].register_forward_pre_hook(zero_input)
y = model(x).detach()
h.remove()
print("output with hooked input:\n", y)
print("same as model(zeros):", torch.allclose(y, model(torch.zeros_like(x))))

# %%
# zh: 前向钩子返回一个值，就会替换模块的输出
# en: A forward hook that returns a value replaces the module's output.
h = model[1].register_forward_hook(lambda m, inp, out: out.clamp(max=0.1))
print("max activation after ReLU with hook:", model[:2](x).max().item())
h.remove()
print("max activation after ReLU without hook:", model[:2](x).max().item())
