# %%
import platform

import torch

# zh: 装的是哪个版本、哪种构建
# en: Which version, and which kind of build.
print("python           :", platform.python_version())
print("torch.__version__:", torch.__version__)
print("torch.version.cuda:", torch.version.cuda)  # zh: CUDA 构建才有，否则 None | en: set in CUDA builds only, else None
print("torch.version.hip :", torch.version.hip)  # zh: ROCm 构建才有，否则 None | en: set in ROCm builds only, else None

# %%
# zh: 各个后端此刻能不能用
# en: Which back ends can be used right now.
print("cuda available:", torch.cuda.is_available())
print("mps available :", torch.backends.mps.is_available())
print("xpu available :", torch.xpu.is_available())

# %%
# zh: 统一的接口：不管是哪一家的加速器，都问 torch.accelerator
# en: One interface for every vendor: ask torch.accelerator.
print("accelerator available:", torch.accelerator.is_available())
print("current_accelerator():", torch.accelerator.current_accelerator())
print("device_count()       :", torch.accelerator.device_count())

# %%
# zh: 在选出的设备上真正算一次，确认安装可用
# en: Compute something on the chosen device to prove the install works.
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.rand(1000, 1000, device=device)
y = x @ x
print("computed on:", y.device, " result shape:", tuple(y.shape))
