# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).to(device).eval()
x = torch.randn(64, 256, device=device)

with torch.no_grad():
    batched = model(x)  # zh: 64 个样本一起算 | en: all 64 samples at once
    one_by_one = torch.cat([model(x[i : i + 1]) for i in range(len(x))])  # zh: 一次一个 | en: one at a time
    again = model(x)

print("same batch twice, bit-for-bit equal:", torch.equal(batched, again))
print("batched vs one at a time, equal:    ", torch.equal(batched, one_by_one))
print("entries that differ:", (batched != one_by_one).sum().item(), "of", batched.numel())
print("largest difference:", (batched - one_by_one).abs().max().item())
print("allclose, default tolerances (rtol=1e-5, atol=1e-8):", torch.allclose(batched, one_by_one))
# zh: 接近 0 的数上相对误差不管用，要给一个绝对误差
# en: Near zero a relative tolerance does not help: give an absolute one.
print("allclose, atol=1e-6:", torch.allclose(batched, one_by_one, atol=1e-6))
print("same predicted classes:", torch.equal(batched.argmax(1), one_by_one.argmax(1)))
