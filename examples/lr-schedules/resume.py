# %%
import torch
from torch.optim.lr_scheduler import StepLR

torch.manual_seed(0)


def make():
    # zh: 训练开始时的写法：新的参数、优化器和调度器
    # en: As at the start of training: fresh parameters, optimizer and scheduler.
    w = torch.zeros(2, requires_grad=True)
    optimizer = torch.optim.SGD([w], lr=0.1)
    return optimizer, StepLR(optimizer, step_size=2, gamma=0.5)


def run(optimizer, scheduler, epochs):
    used = []
    for _ in epochs:
        used.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return used


# zh: 不中断地训练 8 个轮次，作为对照
# en: 8 epochs without a break, for reference.
optimizer, scheduler = make()
print("uninterrupted, epochs 0-7:", run(optimizer, scheduler, range(8)))

# zh: 再训练 4 个轮次，然后保存检查点（这里存在内存里）
# en: Train 4 epochs again, then take a checkpoint (kept in memory here).
optimizer, scheduler = make()
print("first run,     epochs 0-3:", run(optimizer, scheduler, range(4)))
checkpoint = {"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict()}
print("saved scheduler last_epoch:", checkpoint["scheduler"]["last_epoch"])

# %% raises="KeyError"
# zh: 重启之后的旧写法：新的优化器，用 last_epoch 告诉调度器从哪里接着走
# en: The old way after a restart: a fresh optimizer, and last_epoch to tell the scheduler where to resume.
w = torch.zeros(2, requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)
scheduler = StepLR(optimizer, step_size=2, gamma=0.5, last_epoch=3)

# %%
# zh: 先载入优化器的状态，KeyError 就消失了，可调度表多衰减了一次
# en: Loading the optimizer's state first silences the KeyError, but the schedule decays once too often.
print("initial_lr in the saved param_groups:", checkpoint["optimizer"]["param_groups"][0]["initial_lr"])
optimizer = torch.optim.SGD([w], lr=0.1)
optimizer.load_state_dict(checkpoint["optimizer"])
scheduler = StepLR(optimizer, step_size=2, gamma=0.5, last_epoch=3)
print("last_epoch=3,  epochs 4-7:", run(optimizer, scheduler, range(4, 8)))

# %%
# zh: 正确的做法：照常构造两者，再分别载入各自的 state_dict
# en: The right way: build both as usual, then load each one's state_dict.
optimizer, scheduler = make()
optimizer.load_state_dict(checkpoint["optimizer"])
scheduler.load_state_dict(checkpoint["scheduler"])
print("state_dict,    epochs 4-7:", run(optimizer, scheduler, range(4, 8)))
