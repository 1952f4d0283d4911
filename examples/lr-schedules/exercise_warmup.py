# %%
import math

import torch
from torch.optim import lr_scheduler

torch.manual_seed(0)
LR0, WARMUP, EPOCHS = 0.1, 5, 25


def formula(e):
    if e < WARMUP:  # zh: 线性预热：0.2, 0.4, ..., 1.0 倍 | en: linear warm-up: 0.2, 0.4, ..., 1.0 times
        return LR0 * (e + 1) / WARMUP
    t = e - WARMUP  # zh: 之后余弦退火到 0 | en: then cosine annealing down to 0
    return LR0 * (1 + math.cos(math.pi * t / (EPOCHS - WARMUP))) / 2


def lrs(make_scheduler):
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=LR0)
    scheduler = make_scheduler(optimizer)
    used = []
    for _ in range(EPOCHS):
        used.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return used


# zh: 写法一：LambdaLR，倍数 = 公式 / 初始学习率
# en: Option 1: LambdaLR, with the factor = formula / initial lr.
with_lambda = lrs(lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda e: formula(e) / LR0))

# zh: 写法二：SequentialLR 把 LinearLR 和 CosineAnnealingLR 接起来
# en: Option 2: SequentialLR chains LinearLR and CosineAnnealingLR.
with_sequential = lrs(
    lambda o: lr_scheduler.SequentialLR(
        o,
        schedulers=[
            lr_scheduler.LinearLR(o, start_factor=1 / WARMUP, total_iters=WARMUP - 1),
            lr_scheduler.CosineAnnealingLR(o, T_max=EPOCHS - WARMUP),
        ],
        milestones=[WARMUP],
    )
)

want = [formula(e) for e in range(EPOCHS)]
print("epoch  formula  LambdaLR  SequentialLR")
for e in (0, 1, 4, 5, 6, 15, 24):
    print(f"{e:5d}  {want[e]:.5f}  {with_lambda[e]:.5f}   {with_sequential[e]:.5f}")
for got in (with_lambda, with_sequential):
    torch.testing.assert_close(torch.tensor(got, dtype=torch.float64), torch.tensor(want, dtype=torch.float64))
print("both match the formula for every epoch")
