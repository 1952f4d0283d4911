# %%
import os
import tempfile

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.randn(64, 4, device=device)
y = x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]], device=device)


def make():
    torch.manual_seed(1)
    model = nn.Linear(4, 1).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    return model, optimizer


def train_epoch(model, optimizer):
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


tmpdir = tempfile.TemporaryDirectory()
path = os.path.join(tmpdir.name, "checkpoint.pt")

model, optimizer = make()
for epoch in range(5):
    loss = train_epoch(model, optimizer)
    print(f"epoch {epoch}  loss {loss:.4f}")
torch.save(
    {
        "epoch": epoch,
        "model_state_dict": model.state_dict(),
        "optimizer_state_dict": optimizer.state_dict(),
        "loss": loss,
    },
    path,
)
print("checkpoint saved after epoch", epoch)

for _ in range(5, 10):  # zh: 不中断的训练，作为参照 | en: the uninterrupted run, for reference
    train_epoch(model, optimizer)
reference = model.weight.detach().clone()

# %%
model, optimizer = make()  # zh: 新的进程会从这里开始 | en: a fresh process would start here
checkpoint = torch.load(path, weights_only=True)  # zh: 只有张量和数字的字典 | en: a plain dict of tensors and numbers
model.load_state_dict(checkpoint["model_state_dict"])
optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
start = checkpoint["epoch"] + 1
print("resuming at epoch", start, "from loss", round(checkpoint["loss"], 4))
model.train()
for _ in range(start, 10):
    train_epoch(model, optimizer)
print("matches the uninterrupted run:", torch.allclose(model.weight, reference))

# %%
# zh: 不恢复优化器状态，动量缓冲区从零开始
# en: Without the optimizer state the momentum buffers restart from zero.
model, optimizer = make()
model.load_state_dict(checkpoint["model_state_dict"])
for _ in range(start, 10):
    train_epoch(model, optimizer)
print("model only, matches:", torch.allclose(model.weight, reference))

# %%
# zh: map_location：把在任何设备上保存的张量直接加载到 CPU（或 device）上
# en: map_location: load tensors saved on any device straight onto the CPU (or onto `device`).
cpu_ckpt = torch.load(path, map_location="cpu", weights_only=True)
print("weight device:", cpu_ckpt["model_state_dict"]["weight"].device)
cpu_model = nn.Linear(4, 1)
cpu_model.load_state_dict(cpu_ckpt["model_state_dict"])
print("cpu model device:", cpu_model.weight.device)
tmpdir.cleanup()
