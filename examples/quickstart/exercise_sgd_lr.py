# /// example
# timeout = 120
# ///
# %%
import torch
from sklearn.datasets import load_digits
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程反而更慢 | en: a tiny model: more CPU threads only slow it down
digits = load_digits()
dataset = TensorDataset(torch.tensor(digits.data, dtype=torch.float32) / 16.0, torch.tensor(digits.target))
train_set, test_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
test_loader = DataLoader(test_set, batch_size=256)


def run(make_optimizer, epochs=15):
    torch.manual_seed(0)  # zh: 每次都从同样的初始权重开始 | en: the same initial weights every time
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
    optimizer = make_optimizer(model.parameters())
    loader = DataLoader(train_set, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
    for _ in range(epochs):
        model.train()
        for xb, yb in loader:
            loss = nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    model.eval()
    with torch.no_grad():
        correct = sum((model(xb.to(device)).argmax(1) == yb.to(device)).sum().item() for xb, yb in test_loader)
    return loss.item(), correct / len(test_set)


print("Adam lr=1e-3:  last batch loss {:.3f}  test accuracy {:.3f}".format(
    *run(lambda p: torch.optim.Adam(p, lr=1e-3))))
# zh: 同样的学习率换成 SGD：每步只走梯度的千分之一，15 轮几乎没动
# en: SGD with the same learning rate: each step moves a thousandth of the gradient; 15 epochs barely move it.
for lr in [1e-3, 1e-2, 1e-1, 5e-1]:
    print("SGD  lr={:<5g}  last batch loss {:.3f}  test accuracy {:.3f}".format(
        lr, *run(lambda p, lr=lr: torch.optim.SGD(p, lr=lr))))
