# /// example
# timeout = 120
# ///
# %%
import os

import torch
from sklearn.datasets import load_digits
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

# zh: 整个程序：数据、模型、训练、评估，然后保存并重新加载
# en: The whole program: data, model, training, evaluation, then save and reload.
torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程反而更慢 | en: a tiny model: more CPU threads only slow it down

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


def predict(model, loader):
    model.eval()
    with torch.no_grad():
        return torch.cat([model(xb.to(device)) for xb, _ in loader])


model = DigitNet().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(15):
    model.train()
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        loss = loss_fn(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

y_test = torch.cat([yb for _, yb in test_loader]).to(device)
logits = predict(model, test_loader)
print(f"test accuracy {(logits.argmax(dim=1) == y_test).float().mean().item():.3f}")

# %%
# zh: 保存：只存 state_dict（参数名 → 张量），写到工作目录里的一个文件
# en: Save: just the state_dict (parameter name → tensor), to a file in the working directory.
torch.save(model.state_dict(), "digits_mlp.pt")
print("saved", os.listdir("."), os.path.getsize("digits_mlp.pt"), "bytes")
print({name: tuple(t.shape) for name, t in model.state_dict().items()})

# %%
# zh: 加载：新建一个同结构的模型（权重是随机的），再填入保存的权重
# en: Load: build a fresh model of the same class (random weights), then fill in the saved ones.
fresh = DigitNet().to(device)
print("fresh model, same predictions?", torch.equal(predict(fresh, test_loader), logits))
print(fresh.load_state_dict(torch.load("digits_mlp.pt", map_location=device, weights_only=True)))
reloaded = predict(fresh, test_loader)
print("reloaded model, same logits?  ", torch.equal(reloaded, logits))
print(f"reloaded test accuracy {(reloaded.argmax(dim=1) == y_test).float().mean().item():.3f}")
