# %%
import platform

import torch
from torch import nn

# zh: torch.ao.quantization 的量化算子（quantized::linear_prepack 等）由哪个后端实现，取决于“量化引擎”
# en: Which backend implements torch.ao.quantization's operators (quantized::linear_prepack and the rest) is
# en: decided by the "quantized engine".
print("machine:", platform.machine())
print("supported engines:", torch.backends.quantized.supported_engines)
print("current engine:   ", torch.backends.quantized.engine)

# %% raises="RuntimeError"
# zh: “没有引擎”叫 NoQEngine；这份 torch 不允许选它
# en: "No engine" is called NoQEngine; this build of torch will not let you pick it.
torch.backends.quantized.engine = "none"

# %% warns=["DeprecationWarning", "UserWarning"]
# zh: 明确选一个这台机器支持的引擎：ARM 上是 qnnpack，x86 上是 x86（或 fbgemm）
# en: Pick an engine this machine supports, explicitly: qnnpack on ARM, x86 (or fbgemm) on x86.
arm = platform.machine().lower() in ("arm64", "aarch64")
torch.backends.quantized.engine = "qnnpack" if arm else "x86"
from torch.ao.quantization import quantize_dynamic

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 4))
qmodel = quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)  # zh: 这里调用 linear_prepack | en: calls linear_prepack
x = torch.randn(2, 8)
print("engine:", torch.backends.quantized.engine, " ", qmodel[0])
print("max |quantized - float32|:", round((qmodel(x) - model(x)).abs().max().item(), 4))
