# %%
import torch
from torch import nn

torch.manual_seed(0)
x = torch.linspace(-1, 1, 32).unsqueeze(1)
y = 3 * x + 2


def train(zero_grad, steps=60):
    torch.manual_seed(1)
    model = nn.Linear(1, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        loss = nn.functional.mse_loss(model(x), y)
        if zero_grad:
            optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item(), model


buggy_loss, buggy = train(zero_grad=False)
fixed_loss, fixed = train(zero_grad=True)
print(f"without zero_grad: loss {buggy_loss:.4f}  weight {buggy.weight.item():.3f}  bias {buggy.bias.item():.3f}")
print(f"with zero_grad:    loss {fixed_loss:.4f}  weight {fixed.weight.item():.3f}  bias {fixed.bias.item():.3f}")
assert fixed_loss < 1e-3 < buggy_loss

# %%
# zh: 原因：不清零时 .grad 是之前所有梯度之和，像一个不衰减的动量
# en: Why: without clearing, .grad is the sum of every earlier gradient, like momentum that never decays.
torch.manual_seed(1)
model = nn.Linear(1, 1)
total = torch.zeros(1)
for step in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    # zh: 这一步自己的梯度
    # en: This step's own gradient.
    g = torch.autograd.grad(nn.functional.mse_loss(model(x), y), model.bias)[0]
    total += g
    print(f"step {step}: .grad {model.bias.grad.item():8.4f}  sum of own grads {total.item():8.4f}")
    assert torch.allclose(model.bias.grad, total)
    with torch.no_grad():
        model.bias -= 0.1 * model.bias.grad
