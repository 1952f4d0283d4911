# %%
import copy

import torch
from torch import nn

torch.manual_seed(0)
x = torch.randn(32, 2)
y = x.sum(dim=1, keepdim=True)
val_losses = [0.9, 0.5, 0.4, 0.6, 0.7]  # zh: 第 2 个轮次最好 | en: epoch 2 is the best


def run(snapshot):
    torch.manual_seed(1)
    model = nn.Linear(2, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    best, best_loss, best_weight = None, float("inf"), None
    for val in val_losses:
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if val < best_loss:
            best_loss, best = val, snapshot(model.state_dict())
            best_weight = model.weight.detach().clone()  # zh: 用来核对的真值 | en: the truth to check against
    return best, best_weight, model


# zh: bug：state_dict() 里的张量和模型共享内存，之后的训练会改掉它
# en: The bug: the tensors of state_dict() share memory with the model, so later training changes them.
best, truth, model = run(snapshot=lambda sd: sd)
print("plain state_dict():  best equals epoch 2:", torch.equal(best["weight"], truth))
print("                     best equals final:  ", torch.equal(best["weight"], model.weight))

# %%
# zh: 修正：深拷贝，得到独立的快照
# en: The fix: a deep copy gives an independent snapshot.
best, truth, model = run(snapshot=copy.deepcopy)
print("deepcopy(state_dict): best equals epoch 2:", torch.equal(best["weight"], truth))
print("                      best equals final:  ", torch.equal(best["weight"], model.weight))
assert torch.equal(best["weight"], truth)
