# %%
import torch

torch.manual_seed(0)
pred = torch.randn(4, 1)  # zh: 模型输出常是 (N, 1) | en: a model's output is often (N, 1)
target = torch.randn(4)  # zh: 标签常是 (N,) | en: labels are often (N,)

diff = pred - target
print("pred:", tuple(pred.shape), " target:", tuple(target.shape), " pred - target:", tuple(diff.shape))

# %%
# zh: 没有报错，但损失是 4x4 个差的平均，而不是 4 个
# en: No error, but the loss averages 4x4 differences instead of 4.
wrong = ((pred - target) ** 2).mean()
right = ((pred.squeeze(1) - target) ** 2).mean()
print(f"wrong loss: {wrong.item():.4f}")
print(f"right loss: {right.item():.4f}")

# %% warns="UserWarning"
# zh: mse_loss 会发出警告，值却和上面错的一样
# en: mse_loss warns, and returns the same wrong value.
loss = torch.nn.functional.mse_loss(pred, target)
print(f"mse_loss(pred, target): {loss.item():.4f}")
