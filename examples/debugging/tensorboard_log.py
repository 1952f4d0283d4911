# %%
import tempfile

import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
from torch import nn
from torch.utils.tensorboard import SummaryWriter

torch.manual_seed(0)
x = torch.randn(256, 3)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1 * torch.randn(256, 1)
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

tmp = tempfile.TemporaryDirectory()
writer = SummaryWriter(log_dir=tmp.name)
for step in range(50):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    writer.add_scalar("loss/train", loss.item(), step)
    writer.add_scalar("grad_norm", model.weight.grad.norm().item(), step)
    optimizer.step()
    if step % 10 == 0:
        writer.add_histogram("weight", model.weight, step)
writer.close()  # zh: 把事件文件写到磁盘 | en: flushes the event file to disk

# %%
from pathlib import Path

print("files:", [p.name.split(".")[0] for p in Path(tmp.name).iterdir()])
acc = EventAccumulator(tmp.name)
acc.Reload()  # zh: 解析事件文件 | en: parse the event file
print("scalar tags:", acc.Tags()["scalars"])
print("histogram tags:", acc.Tags()["histograms"])
events = acc.Scalars("loss/train")
print("loss events:", len(events))
for e in events[::10]:
    print(f"  step {e.step:2d}  loss {e.value:.4f}")
print("last:", events[-1].step, round(events[-1].value, 4))
tmp.cleanup()
