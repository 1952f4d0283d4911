# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 1))
x = torch.randn(64, 10)
y = torch.randn(64, 1) * 100  # zh: 目标值大，梯度也大 | en: large targets: large gradients
nn.functional.mse_loss(model(x), y).backward()

grads = [p.grad.clone() for p in model.parameters()]
total = torch.sqrt(sum((g**2).sum() for g in grads))  # zh: 把所有梯度看成一个向量求范数 | en: the norm of all gradients as one vector
print(f"total gradient norm by hand: {total.item():.3f}")

# %%
max_norm = 1.0
returned = nn.utils.clip_grad_norm_(model.parameters(), max_norm=max_norm)
print(f"clip_grad_norm_ returns the norm before clipping: {returned.item():.3f}")

# zh: 每个梯度乘以同一个系数 max_norm / (total + 1e-6)，方向不变
# en: every gradient is scaled by the same factor max_norm / (total + 1e-6), so directions are kept
scale = max_norm / (total + 1e-6)
for g, p in zip(grads, model.parameters(), strict=True):
    torch.testing.assert_close(p.grad, g * scale)
new_total = torch.sqrt(sum((p.grad**2).sum() for p in model.parameters()))
print(f"scale factor {scale.item():.5f}; norm after clipping: {new_total.item():.4f}")

# %%
# zh: clip_grad_value_ 则逐元素截断，可能改变方向
# en: clip_grad_value_ clamps each element instead, which can change the direction
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.01)
largest = max(p.grad.abs().max().item() for p in model.parameters())
print(f"largest |grad| element after clip_grad_value_: {largest:.4f}")

# %%
# zh: 在训练循环里：backward() 之后、step() 之前
# en: in a training loop: after backward(), before step()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    optimizer.step()
    print(f"step {step}: loss {loss.item():9.2f}  grad norm before clipping {norm.item():8.2f}")
