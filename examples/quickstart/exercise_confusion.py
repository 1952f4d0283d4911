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

# zh: 与“训练”一节相同的数据、模型和 15 轮训练
# en: The same data, model and 15 epochs as in the training section.
digits = load_digits()
dataset = TensorDataset(torch.tensor(digits.data, dtype=torch.float32) / 16.0, torch.tensor(digits.target))
train_set, test_set = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(0))
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0))
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(15):
    for xb, yb in train_loader:
        loss = nn.functional.cross_entropy(model(xb.to(device)), yb.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

# %%
model.eval()
xt, yt = (t.to(device) for t in next(iter(DataLoader(test_set, batch_size=len(test_set)))))
with torch.no_grad():
    pred = model(xt).argmax(dim=1)

# zh: 混淆矩阵：第 i 行第 j 列 = 真实类别 i 被预测成 j 的次数；一次 bincount 就够
# en: Confusion matrix: row i, column j = how often true class i was predicted as j; one bincount does it.
cm = torch.bincount(yt * 10 + pred, minlength=100).reshape(10, 10).cpu()
print(cm)
print("correct:", cm.trace().item(), "of", cm.sum().item())
print("recall per digit:", [round(r, 2) for r in (cm.diag() / cm.sum(dim=1)).tolist()])

# zh: 非对角线上的格子就是错误：列出出现两次以上的
# en: The off-diagonal cells are the mistakes: list those made at least twice.
off = cm.clone()
off.fill_diagonal_(0)
print("mistakes:", off.sum().item(), " cells with one mistake:", (off == 1).sum().item())
for i, j in (off >= 2).nonzero().tolist():
    print(f"true {i} predicted as {j}: {off[i, j].item()} times")
