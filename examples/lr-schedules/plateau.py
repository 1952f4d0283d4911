# %%
import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau

torch.manual_seed(0)
w = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)
scheduler = ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=2)

val_losses = [1.0, 0.8, 0.7, 0.7, 0.71, 0.69, 0.69, 0.70, 0.69, 0.5, 0.5, 0.5, 0.5]
for epoch, val in enumerate(val_losses):
    optimizer.step()
    before = optimizer.param_groups[0]["lr"]
    # zh: 超过 patience 个轮次没有改善就降低 lr
    # en: Cut lr after more than `patience` epochs without improvement.
    scheduler.step(val)
    after = optimizer.param_groups[0]["lr"]
    note = "  <- reduced" if after < before else ""
    print(f"epoch {epoch:2d}  val_loss {val:.2f}  bad epochs {scheduler.num_bad_epochs}  lr {after:.4f}{note}")

# %%
print("best:", scheduler.best, " get_last_lr():", scheduler.get_last_lr())

# %% raises="TypeError"
scheduler.step()  # zh: ReduceLROnPlateau 需要指标 | en: ReduceLROnPlateau needs the metric
