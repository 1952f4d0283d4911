# %%
import matplotlib.pyplot as plt
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: 回归：均方误差
# en: Regression: mean squared error.
mse = nn.MSELoss()
pred, target = torch.tensor([2.5, 0.0]), torch.tensor([3.0, -1.0])
print("MSELoss:", mse(pred, target), " by hand:", ((pred - target) ** 2).mean())

# zh: 分类：原始 logits + 整数类别标签（softmax 在损失函数内部）
# en: Classification: raw logits + integer class labels (softmax is inside the loss).
ce = nn.CrossEntropyLoss()
logits, labels = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]]), torch.tensor([0, 2])
print("CrossEntropyLoss:", ce(logits, labels), " by hand:", -logits.log_softmax(dim=1)[[0, 1], labels].mean())

# %%
# zh: 用一个 nn.Linear 拟合 y = 3x + 2 + 噪声
# en: Fit y = 3x + 2 + noise with one nn.Linear.
x = torch.linspace(-1, 1, 64, device=device).unsqueeze(1)
y = 3 * x + 2 + 0.3 * torch.randn(x.shape, device=device)

model = nn.Linear(1, 1).to(device)
loss_fn = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

losses = []
for epoch in range(100):
    pred = model(x)  # zh: 前向 | en: forward
    loss = loss_fn(pred, y)
    optimizer.zero_grad()  # zh: 清掉旧梯度 | en: clear old gradients
    loss.backward()  # zh: 计算新梯度 | en: compute new gradients
    optimizer.step()  # zh: 更新参数 | en: update parameters
    losses.append(loss.item())
    if epoch % 20 == 0 or epoch == 99:
        print(f"epoch {epoch:3d}  loss {loss.item():.4f}")

print("learned weight:", round(model.weight.item(), 3), " bias:", round(model.bias.item(), 3))

# %% caption_zh="用 SGD 拟合 y = 3x + 2 时的损失"
plt.figure(figsize=(6, 3.5))
plt.plot(losses)
plt.yscale("log")
plt.xlabel("epoch")
plt.ylabel("MSE loss (log scale)")
plt.title("SGD fitting y = 3x + 2")
plt.grid(alpha=0.3)
plt.tight_layout()
plt.show()
