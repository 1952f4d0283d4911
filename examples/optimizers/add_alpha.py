# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x, y = torch.randn(16, 4, device=device), torch.randn(16, 1, device=device)
start = nn.Linear(4, 1).to(device).state_dict()
lr = 0.1


def one_step(update):
    model = nn.Linear(4, 1).to(device)
    model.load_state_dict(start)
    nn.functional.mse_loss(model(x), y).backward()
    with torch.no_grad():
        for p in model.parameters():
            update(p, p.grad)
    return model.weight.detach().clone()


# %% warns="UserWarning"
# zh: 旧教程里手写的 SGD：标量在前，张量在后
# en: Hand-written SGD from old tutorials: the number first, the tensor second.
old = one_step(lambda p, g: p.add_(-lr, g))
print("old overload, weight after one step:", old)

# %%
# zh: 现在的写法：张量在前，倍数用关键字参数 alpha 给出
# en: The current form: the tensor first, the multiplier as the keyword argument alpha.
new = one_step(lambda p, g: p.add_(g, alpha=-lr))
print("add_(g, alpha=-lr) gives the same weight:", torch.equal(old, new))

# zh: 和 torch.optim.SGD 的一步比较
# en: Compare with one step of torch.optim.SGD.
model = nn.Linear(4, 1).to(device)
model.load_state_dict(start)
optimizer = torch.optim.SGD(model.parameters(), lr=lr)
nn.functional.mse_loss(model(x), y).backward()
optimizer.step()
print("max |difference| from optim.SGD:", (model.weight.detach() - new).abs().max().item())
