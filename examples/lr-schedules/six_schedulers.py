# %%
import matplotlib.pyplot as plt
import torch
from torch.optim import lr_scheduler

torch.manual_seed(0)
EPOCHS = 50


def val_loss(epoch):
    # zh: 假的验证集损失：到第 14 个轮次一直改善，之后停滞
    # en: A fake validation loss: improves until epoch 14, then plateaus.
    return max(0.3, 1.0 - 0.05 * epoch)


def run(make_scheduler):
    w = torch.zeros(1, requires_grad=True)  # zh: 一个假参数 | en: a dummy parameter
    optimizer = torch.optim.SGD([w], lr=0.1)
    scheduler = make_scheduler(optimizer)
    lrs = []
    for epoch in range(EPOCHS):
        lrs.append(optimizer.param_groups[0]["lr"])  # zh: 这个轮次用的 lr | en: lr used in this epoch
        optimizer.step()  # zh: （真实的循环在这里训练） | en: (a real loop trains here)
        if isinstance(scheduler, lr_scheduler.ReduceLROnPlateau):
            scheduler.step(val_loss(epoch))  # zh: 需要被监控的指标 | en: needs the monitored metric
        else:
            scheduler.step()
    return lrs


schedules = {
    "StepLR(step_size=10, gamma=0.5)": lambda o: lr_scheduler.StepLR(o, step_size=10, gamma=0.5),
    "MultiStepLR([15, 30, 40], gamma=0.3)": lambda o: lr_scheduler.MultiStepLR(o, milestones=[15, 30, 40], gamma=0.3),
    "ExponentialLR(gamma=0.93)": lambda o: lr_scheduler.ExponentialLR(o, gamma=0.93),
    "CosineAnnealingLR(T_max=25)": lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=25, eta_min=0.005),
    "ReduceLROnPlateau(factor=0.5, patience=5)": lambda o: lr_scheduler.ReduceLROnPlateau(
        o, mode="min", factor=0.5, patience=5
    ),
    "LambdaLR(warm-up, then 0.95**epoch)": lambda o: lr_scheduler.LambdaLR(
        o, lr_lambda=lambda e: min(1.0, (e + 1) / 5) * 0.95**e
    ),
}
curves = {name: run(make) for name, make in schedules.items()}

cols = (0, 10, 20, 30, 40, 49)
print(f"{'lr at epoch':42s}", " ".join(f"{e:>6d}" for e in cols))
for name, lrs in curves.items():
    print(f"{name:42s}", " ".join(f"{lrs[e]:.4f}" for e in cols))

# %% caption_zh="六种学习率调度器，初始 lr = 0.1"
fig, axes = plt.subplots(2, 3, figsize=(9, 5), sharex=True, sharey=True)
for ax, (name, lrs) in zip(axes.flat, curves.items(), strict=True):
    ax.plot(range(EPOCHS), lrs, drawstyle="steps-post")
    ax.set_title(name.split("(")[0], fontsize=10)
    ax.grid(alpha=0.3)
for ax in axes[1]:
    ax.set_xlabel("epoch")
for ax in axes[:, 0]:
    ax.set_ylabel("learning rate")
fig.suptitle("Six learning-rate schedulers, initial lr = 0.1")
fig.tight_layout()
plt.show()
