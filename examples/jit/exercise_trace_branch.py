# %%
import warnings

import torch

# zh: 隐藏弃用警告；TracerWarning 单独记下来
# en: Hide the deprecation warnings; record the TracerWarnings separately.
warnings.filterwarnings("ignore", category=DeprecationWarning)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def normalise(x):
    peak = x.abs().max()
    if peak > 1:  # zh: 依赖数据的分支 | en: data-dependent branch
        return x / peak
    return x


small = torch.tensor([0.5, -0.25], device=device)
large = torch.tensor([4.0, -2.0], device=device)
scripted = torch.jit.script(normalise)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", torch.jit.TracerWarning)
    traced_small = torch.jit.trace(normalise, small)  # zh: 示例输入走 return x | en: example input takes `return x`
    traced_large = torch.jit.trace(normalise, large)  # zh: 示例输入走 x / peak | en: example input takes `x / peak`
print("TracerWarnings:", sum(issubclass(w.category, torch.jit.TracerWarning) for w in caught))

for name, fn in [("eager", normalise), ("script", scripted), ("trace(small)", traced_small), ("trace(large)", traced_large)]:
    print(f"{name:13} small -> {fn(small).tolist()}  large -> {fn(large).tolist()}")

# %%
# zh: script 在两种输入上都和 eager 一致；每个 trace 只对它见过的那条分支正确
# en: script matches eager on both inputs; each trace is right only on the branch it saw.
for name, fn in [("script", scripted), ("trace(small)", traced_small), ("trace(large)", traced_large)]:
    ok = [torch.equal(fn(t), normalise(t)) for t in (small, large)]
    print(f"{name:13} matches eager on (small, large): {ok}")

