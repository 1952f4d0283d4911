# %%
import copy

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
amp_dtype = torch.bfloat16 if device == "cpu" else torch.float16
model = nn.Sequential(nn.Linear(32, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 1)).to(device)
x = torch.randn(512, 32, device=device)

# %%
# zh: 同一个模型、同一批输入：autocast 的输出和 float32 差多少？
# en: Same model, same inputs: how far is the autocast output from float32?
with torch.no_grad():
    out32 = model(x)
    with torch.autocast(device, dtype=amp_dtype):
        out_amp = model(x)
diff = (out_amp.float() - out32).abs()
print("output dtype under autocast:", out_amp.dtype)
print(f"max abs difference:  {diff.max().item():.2e}")
print(f"mean abs difference: {diff.mean().item():.2e}")
print(f"typical output size: {out32.abs().mean().item():.2e}")

# %%
# zh: 一段很短的训练：同样的初始权重、同样的数据，一个用 float32，一个用 autocast
# en: A short training run: same initial weights, same data, one in float32, one under autocast.
w_true = torch.randn(32, 1, device=device)
y = torch.sin(x @ w_true)  # zh: 要拟合的目标 | en: the target to fit


def train(net, use_amp, steps=100):
    optimizer = torch.optim.Adam(net.parameters(), lr=2e-3)
    for step in range(steps):
        with torch.autocast(device, dtype=amp_dtype, enabled=use_amp):
            loss = nn.functional.mse_loss(net(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 25 == 0 or step == steps - 1:
            print(f"  step {step:3d}: loss {loss.item():.4f}")
    return net


torch.manual_seed(1)
start = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 1)).to(device)
print("float32:")
net32 = train(copy.deepcopy(start), use_amp=False)
print(f"autocast {amp_dtype}:")
net_amp = train(copy.deepcopy(start), use_amp=True)

# %%
# zh: 最后在 float32 下评估两个模型
# en: Finally, evaluate both models in float32.
with torch.no_grad():
    for name, net in (("float32", net32), ("autocast", net_amp)):
        print(f"{name:>8} model, float32 evaluation: loss {nn.functional.mse_loss(net(x), y).item():.4f}")
    print("parameter dtype after autocast training:", next(net_amp.parameters()).dtype)
