# %% warns=["DeprecationWarning", "TracerWarning"]
import warnings

import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def f(x):
    if x.sum() > 0:  # zh: 依赖数据的控制流 | en: data-dependent control flow
        return x * 2
    return -x


def show_warnings(caught):
    seen = dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught)
    for line in seen:
        print(" ", line)


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    scripted = torch.jit.script(f)
print("warnings from torch.jit.script:")
show_warnings(caught)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    traced = torch.jit.trace(f, torch.ones(3, device=device))  # zh: 示例输入：sum > 0 | en: example input: sum > 0
print("warnings from torch.jit.trace:")
show_warnings(caught)

# %%
pos = torch.ones(3, device=device)
neg = -pos
for name, fn in [("python", f), ("script", scripted), ("trace", traced)]:
    print(f"{name:6} f(pos) = {fn(pos)}  f(neg) = {fn(neg)}")

# %%
print("scripted code:\n" + scripted.code)
print("traced code:\n" + traced.code)
