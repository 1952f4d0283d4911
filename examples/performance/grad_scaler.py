# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print("device:", device)

# %%
# zh: 为什么要缩放：梯度很小时，float16 的反向传播里它会下溢成 0
# en: Why scale: a tiny gradient underflows to 0 in the float16 backward pass.
layer = nn.Linear(4, 1).to(device)
x = torch.randn(8, 4, device=device)
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)


def tiny_loss():
    with torch.autocast(device, dtype=torch.float16):
        out = layer(x)  # zh: float16 的输出 | en: float16 output
    return out.float().sum() * 1e-8  # zh: 对 out 的梯度是 1e-8 | en: d loss / d out is 1e-8


layer.zero_grad()
tiny_loss().backward()
print("float16, no scaling:  ", layer.weight.grad)

scaler = torch.amp.GradScaler(device)
print("initial scale:", scaler.get_scale())
layer.zero_grad()
scaler.scale(tiny_loss()).backward()  # zh: 损失乘以 65536 再反向传播 | en: the loss times 65536, then backward
scaler.unscale_(optimizer)  # zh: 梯度除回 65536（在 float32 里） | en: divide the gradients back (in float32)
print("float16, scaled:      ", layer.weight.grad)

layer.zero_grad()
(layer(x).sum() * 1e-8).backward()  # zh: 不用 autocast | en: no autocast
print("float32 reference:    ", layer.weight.grad)

# %%
# zh: 标准的训练循环：scale → backward → step → update
# en: The standard loop: scale → backward → step → update.
torch.manual_seed(0)
X = torch.randn(256, 20, device=device)
Y = 2 * X[:, :1] - X[:, 1:2]
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scaler = torch.amp.GradScaler(device, growth_interval=10)  # zh: 默认 2000 步才放大一次 | en: the default grows only every 2000 steps

for step in range(40):
    with torch.autocast(device, dtype=torch.float16):
        loss = nn.functional.mse_loss(model(X), Y)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # zh: 先 unscale，梯度有 inf/NaN 就跳过这一步 | en: unscales; skips the step if any gradient is inf/NaN
    old_scale = scaler.get_scale()
    scaler.update()  # zh: 跳过了就缩小 scale，连续 growth_interval 步正常就放大 | en: shrink after a skip, grow after growth_interval good steps
    new_scale = scaler.get_scale()
    if new_scale != old_scale or step % 10 == 0:
        note = "  (inf/NaN found: step skipped, scale halved)" if new_scale < old_scale else ""
        note = note or ("  (10 good steps: scale doubled)" if new_scale > old_scale else "")
        print(f"step {step:2d}: loss {loss.item():.4f}, scale {old_scale:>6.0f} -> {new_scale:.0f}{note}")
print("final loss:", round(loss.item(), 4))
