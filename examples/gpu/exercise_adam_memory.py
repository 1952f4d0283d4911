# /// example
# requires = ["cuda"]
# ///
# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4096, 8192), nn.ReLU(), nn.Linear(8192, 4096)).cuda()
n = sum(p.numel() for p in model.parameters())
# zh: 预测：参数、梯度、Adam 的 exp_avg 和 exp_avg_sq，各 4 字节 × n
# en: Prediction: parameters, gradients, Adam's exp_avg and exp_avg_sq, 4 bytes x n each.
predicted = 4 * 4 * n
print(f"parameters: {n / 1e6:.2f} M; predicted after the first step: {predicted / 2**20:.1f} MiB")

optimizer = torch.optim.Adam(model.parameters())
x = torch.randn(64, 4096, device="cuda")
model(x).square().mean().backward()
optimizer.step()  # zh: 第一步才创建 Adam 的状态 | en: Adam's state is created by the first step
measured = torch.cuda.memory_allocated() - x.numel() * 4
print(f"measured (without the input batch): {measured / 2**20:.1f} MiB")
print(f"ratio measured / predicted: {measured / predicted:.3f}")

# %%
optimizer.zero_grad()  # zh: set_to_none=True：梯度占的显存释放了 | en: set_to_none=True: the gradients' memory is freed
print(f"after zero_grad(): {(torch.cuda.memory_allocated() - x.numel() * 4) / 2**20:.1f} MiB "
      f"(predicted {3 * 4 * n / 2**20:.1f} MiB: parameters and two Adam states)")
