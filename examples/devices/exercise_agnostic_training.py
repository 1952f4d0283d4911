# %%
import torch
from torch import nn


def train(device, steps=200):
    # zh: 模型和数据都放到同一个设备上；同一份代码，换个 device 就能跑
    # en: Model and data on one device; the same code runs on any device.
    torch.manual_seed(0)
    x = torch.linspace(-1, 1, 64).unsqueeze(1)
    y = 3 * x + 0.5
    model = nn.Linear(1, 1).to(device)
    x, y = x.to(device), y.to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert loss.device.type == torch.device(device).type
    return model.weight.item(), model.bias.item(), loss.item()


device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
w, b, loss = train(device)
print(f"on {device}: weight {w:.4f}, bias {b:.4f}, loss {loss:.2e}")

# %%
# zh: 和 CPU 上的结果比较（在 CPU 上运行时两者完全相同）
# en: Compare with the CPU result (identical when this runs on the CPU).
w_cpu, b_cpu, _ = train("cpu")
assert abs(w - w_cpu) < 1e-4 and abs(b - b_cpu) < 1e-4
assert abs(w - 3) < 1e-3 and abs(b - 0.5) < 1e-3
print("matches the CPU run and recovers y = 3x + 0.5")
