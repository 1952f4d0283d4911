# %%
import copy

import torch
from torch import nn

torch.manual_seed(0)
X, Y = torch.randn(16, 4), torch.randn(16, 1)
model_full = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
model_acc = copy.deepcopy(model_full)  # zh: 同样的初始权重 | en: the same initial weights
opt_full = torch.optim.SGD(model_full.parameters(), lr=0.1, momentum=0.9)
opt_acc = torch.optim.SGD(model_acc.parameters(), lr=0.1, momentum=0.9)
loss_fn = nn.MSELoss()  # zh: 批量内取平均 | en: averages over the batch
K = 4  # zh: 每个批量拆成 K 份 | en: micro-batches per batch

for step in range(3):
    # zh: 一次处理整个批量
    # en: The whole batch at once.
    opt_full.zero_grad()
    loss_fn(model_full(X), Y).backward()
    opt_full.step()

    # zh: K 个小批量，每份的损失除以 K，梯度累加后只 step 一次
    # en: K micro-batches, each loss divided by K, gradients accumulated, one step.
    opt_acc.zero_grad()
    for xb, yb in zip(X.chunk(K), Y.chunk(K), strict=True):
        (loss_fn(model_acc(xb), yb) / K).backward()
    opt_acc.step()

    diff = max((a - b).abs().max().item() for a, b in zip(model_full.parameters(), model_acc.parameters(), strict=True))
    print(f"step {step}: max parameter difference {diff:.1e}")

for a, b in zip(model_full.parameters(), model_acc.parameters(), strict=True):
    torch.testing.assert_close(a, b)
print("accumulated training matches full-batch training")

# %%
# zh: 忘了除以 K：梯度变成 K 倍，相当于学习率乘了 K
# en: Forgetting to divide by K: the gradient is K times too large, as if the learning rate were K times higher.
model_acc.zero_grad()
for xb, yb in zip(X.chunk(K), Y.chunk(K), strict=True):
    loss_fn(model_acc(xb), yb).backward()
g_wrong = model_acc[0].weight.grad.clone()
model_acc.zero_grad()
loss_fn(model_acc(X), Y).backward()
print("ratio to the full-batch gradient:", (g_wrong / model_acc[0].weight.grad).mean().item())
