# %%
import bisect
import math

import torch
from torch.optim import lr_scheduler

torch.manual_seed(0)
LR0, EPOCHS = 0.1, 30


def lrs(make_scheduler):
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=LR0)
    scheduler = make_scheduler(optimizer)
    used = []
    for _ in range(EPOCHS):
        used.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return used


# zh: 每个调度器配一个闭式公式：第 e 个轮次的学习率
# en: Each scheduler with its closed form: the learning rate of epoch e.
cases = {
    "StepLR(step_size=7, gamma=0.5)": (
        lambda o: lr_scheduler.StepLR(o, step_size=7, gamma=0.5),
        lambda e: LR0 * 0.5 ** (e // 7),
    ),
    "MultiStepLR([5, 12, 20], gamma=0.1)": (
        lambda o: lr_scheduler.MultiStepLR(o, milestones=[5, 12, 20], gamma=0.1),
        lambda e: LR0 * 0.1 ** bisect.bisect_right([5, 12, 20], e),  # zh: 已经过了几个里程碑 | en: milestones passed
    ),
    "ExponentialLR(gamma=0.9)": (
        lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9),
        lambda e: LR0 * 0.9**e,
    ),
}
for name, (make, formula) in cases.items():
    got = lrs(make)
    want = [formula(e) for e in range(EPOCHS)]
    worst = max(abs(g - w) for g, w in zip(got, want, strict=True))
    print(f"{name:36s} epochs 0-{EPOCHS - 1}: max |scheduler - formula| = {worst:.1e}")
    assert all(math.isclose(g, w, rel_tol=1e-9, abs_tol=1e-15) for g, w in zip(got, want, strict=True))
