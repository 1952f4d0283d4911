# %%
import warnings

import torch
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(0)


def lrs_used(correct_order):
    w = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.SGD([w], lr=0.1)
    scheduler = StepLR(optimizer, step_size=2, gamma=0.5)
    used = []
    for _ in range(6):
        if correct_order:
            used.append(optimizer.param_groups[0]["lr"])
            optimizer.step()
            scheduler.step()
        else:
            scheduler.step()
            used.append(optimizer.param_groups[0]["lr"])
            optimizer.step()
    return used


print("optimizer.step() then scheduler.step():", lrs_used(True))

# %% warns="UserWarning"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    reversed_lrs = lrs_used(False)
print("scheduler.step() then optimizer.step():", reversed_lrs)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
