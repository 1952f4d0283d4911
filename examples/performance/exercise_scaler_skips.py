# %%
import math

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
X = torch.randn(64, 8, device=device)
Y = X.sum(dim=1, keepdim=True)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
# zh: 起始 scale 过大：缩放后的梯度在 float16 里溢出成 inf
# en: An initial scale that is far too large: the scaled gradients overflow to inf in float16.
scaler = torch.amp.GradScaler(device, init_scale=2.0**40)

skipped = 0
for step in range(30):
    before = [p.detach().clone() for p in model.parameters()]
    with torch.autocast(device, dtype=torch.float16):
        loss = nn.functional.mse_loss(model(X), Y)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scale = scaler.get_scale()
    scaler.update()
    unchanged = all(torch.equal(b, p) for b, p in zip(before, model.parameters(), strict=True))
    if scaler.get_scale() < scale:
        skipped += 1
        if skipped <= 2:
            print(f"step {step}: scale 2**{math.log2(scale):.0f}, skipped, parameters unchanged: {unchanged}")
    elif step == skipped:
        print(f"step {step}: first real update, scale 2**{math.log2(scale):.0f}, parameters unchanged: {unchanged}")
print(f"{skipped} of 30 steps skipped; final scale 2**{math.log2(scaler.get_scale()):.0f}, last loss {loss.item():.4f}")
