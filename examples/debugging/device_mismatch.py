# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Linear(4, 2).to(device)  # zh: 模型在加速器上（有的话） | en: the model on the accelerator, if there is one
x = torch.randn(8, 4)  # zh: 忘了 .to(device)：输入还在 CPU 上 | en: forgot .to(device): the input is still on the CPU
print("model on", model.weight.device, "| input on", x.device)
try:
    model(x)
    print("no error: model and input are on the same device")
except RuntimeError as e:
    print("RuntimeError:", e)

# %%
# zh: 修正：输入也放到 device 上
# en: the fix: move the input to the same device
out = model(x.to(device))
print("output:", tuple(out.shape), "on", out.device)
