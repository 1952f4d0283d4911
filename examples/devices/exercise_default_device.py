# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print("default before:", torch.get_default_device())

# zh: 把默认设备设成选出的设备：不写 device= 的工厂函数也会建在那里
# en: Make the chosen device the default: factory calls without device= create tensors there too.
torch.set_default_device(device)
try:
    x = torch.zeros(2, 3)
    w = torch.nn.Linear(3, 1).weight
    print("default now:", torch.get_default_device())
    assert x.device.type == device and w.device.type == device
    print("zeros and nn.Linear landed on", x.device.type)

    # zh: torch.tensor(...) 同样跟随默认设备
    # en: torch.tensor(...) follows the default device as well.
    assert torch.tensor([1.0, 2.0]).device.type == device
finally:
    torch.set_default_device("cpu")  # zh: 恢复，免得影响后面的代码 | en: restore, so later code is not affected
print("default restored:", torch.get_default_device())
