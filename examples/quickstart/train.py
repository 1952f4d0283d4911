# /// example
# timeout = 120
# ///
# %%
import torch
from sklearn.datasets import load_digits
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程反而更慢 | en: a tiny model: more CPU threads only slow it down

# zh: 数据和模型与前两个示例相同
# en: The same data and model as in the two previous examples.
digits = load_digits()
dataset = TensorDataset(torch.tensor(digits.data, dtype=torch.float32) / 16.0, torch.tensor(digits.target))
train_set, test_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
test_loader = DataLoader(test_set, batch_size=256)


class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(64, 128)
        self.out = nn.Linear(128, 10)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


model = DigitNet().to(device)
loss_fn = nn.CrossEntropyLoss()  # zh: 输入 logits 和整数标签 | en: takes logits and integer labels
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

# %%
batch_losses, epoch_losses = [], []
for epoch in range(15):
    model.train()
    total = 0.0
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)  # zh: 每个批量搬到模型所在的设备 | en: each batch to the model's device
        loss = loss_fn(model(xb), yb)  # zh: 前向，计算损失 | en: forward, loss
        optimizer.zero_grad()  # zh: 清掉上一步的梯度 | en: clear the last step's gradients
        loss.backward()  # zh: 反向传播 | en: backpropagate
        optimizer.step()  # zh: 更新参数 | en: update the parameters
        batch_losses.append(loss.item())
        total += loss.item() * len(yb)
    epoch_losses.append(total / len(train_set))
    print(f"epoch {epoch + 1:2d}  mean training loss {epoch_losses[-1]:.4f}")

# %% caption="Training loss per batch and per epoch on the digits" caption_zh="在手写数字上每个批次和每个 epoch 的训练损失"
import matplotlib.pyplot as plt

steps_per_epoch = len(train_loader)
plt.figure(figsize=(6, 3.2))
plt.plot(batch_losses, alpha=0.4, label="per batch")
plt.plot([steps_per_epoch * (e + 1) for e in range(len(epoch_losses))], epoch_losses, "o-", label="epoch mean")
plt.yscale("log")
plt.xlabel("optimizer step")
plt.ylabel("cross-entropy loss")
plt.legend()
plt.grid(alpha=0.3)
plt.tight_layout()
plt.show()


# %%
# zh: 评估：model.eval() 切到评估模式；torch.no_grad() 里不建计算图
# en: Evaluation: model.eval() switches to evaluation mode; torch.no_grad() builds no graph.
def accuracy(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in loader:
            logits = model(xb.to(device))
            correct += (logits.argmax(dim=1) == yb.to(device)).sum().item()
    print("  inside no_grad, logits.requires_grad =", logits.requires_grad)
    return correct / len(loader.dataset)


print(f"train accuracy {accuracy(model, train_loader):.3f}")
print(f"test accuracy  {accuracy(model, test_loader):.3f}")
