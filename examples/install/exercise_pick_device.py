# %%
import torch
from torch import nn


def pick_device() -> torch.device:
    # zh: 课程的设备惯用法，包成返回 torch.device 的函数
    # en: The course's device idiom, as a function returning a torch.device.
    name = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
    return torch.device(name)


device = pick_device()
print("picked:", device)

# %%
# zh: 同一个模型、同一批数据，在选出的设备上和在 CPU 上的结果应当一致
# en: The same model on the same data should give the same result on the picked device and on the CPU.
torch.manual_seed(0)
model = nn.Linear(4, 2)
x = torch.randn(8, 4)
expected = model(x)

model_dev = nn.Linear(4, 2).to(device)
model_dev.load_state_dict(model.state_dict())
got = model_dev(x.to(device))

assert got.device.type == device.type
assert all(p.device.type == device.type for p in model_dev.parameters())
torch.testing.assert_close(got.cpu(), expected, rtol=1e-4, atol=1e-5)
print("outputs on", got.device.type, "match the CPU")
