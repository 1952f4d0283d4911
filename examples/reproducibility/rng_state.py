# %%
import io

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
torch.manual_seed(0)
dataset = TensorDataset(torch.randn(64, 8), torch.randn(64, 1))


def make_run():
    # zh: 模型有 dropout，DataLoader 打乱数据：续训时两者都要接着原来的随机数流
    # en: Dropout in the model, a shuffling DataLoader: resuming must continue both random streams.
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    loader_gen = torch.Generator().manual_seed(0)
    loader = DataLoader(dataset, batch_size=16, shuffle=True, generator=loader_gen)
    return model, optimizer, loader, loader_gen


def train(model, optimizer, loader, epochs):
    model.train()
    for _ in range(epochs):
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb.to(device)), yb.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def flat(model):
    return torch.cat([p.detach().flatten() for p in model.parameters()])


def rng_states(loader_gen):
    states = {"torch": torch.get_rng_state(), "loader": loader_gen.get_state()}
    if device != "cpu":  # zh: dropout 在加速器上用的是那台设备的生成器 | en: on an accelerator, dropout uses that device's generator
        states["device"] = torch.get_device_module(device).get_rng_state()
    return states


def set_rng_states(states, loader_gen):
    torch.set_rng_state(states["torch"])
    loader_gen.set_state(states["loader"])
    if "device" in states:
        torch.get_device_module(device).set_rng_state(states["device"])


# zh: 参照：一口气训练 6 轮
# en: Reference: 6 epochs in one go.
torch.manual_seed(1)
model, optimizer, loader, loader_gen = make_run()
train(model, optimizer, loader, 6)
reference = flat(model)

# zh: 训练 3 轮后存档：模型、优化器，以及随机数生成器的状态
# en: 3 epochs, then a checkpoint: model, optimizer, and the random generators' states.
torch.manual_seed(1)
model, optimizer, loader, loader_gen = make_run()
train(model, optimizer, loader, 3)
buffer = io.BytesIO()
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "rng": rng_states(loader_gen)}, buffer)
print("saved RNG states:", {k: (v.dtype, tuple(v.shape)) for k, v in rng_states(loader_gen).items()})

# %%
for restore_rng in (True, False):
    torch.manual_seed(12345)  # zh: 模拟一个新进程：随机数状态已经不同 | en: as in a new process: the random state differs
    model, optimizer, loader, loader_gen = make_run()
    buffer.seek(0)
    checkpoint = torch.load(buffer, weights_only=True)
    model.load_state_dict(checkpoint["model"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    if restore_rng:
        set_rng_states(checkpoint["rng"], loader_gen)
    train(model, optimizer, loader, 3)
    print(f"resumed, RNG state restored: {restore_rng!s:5}  identical to the 6-epoch run? {torch.equal(flat(model), reference)}"
          f"  max difference {(flat(model) - reference).abs().max().item():.2e}")
