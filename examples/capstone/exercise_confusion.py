# /// example
# timeout = 120
# ///
# %%
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)
y = torch.tensor(digits.target, dtype=torch.long)
X_rest, X_test, y_rest, y_test = train_test_split(X, y, test_size=0.15, random_state=0, stratify=y)
X_train, X_val, y_train, y_val = train_test_split(
    X_rest, y_rest, test_size=len(y_test), random_state=0, stratify=y_rest)
train_loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True,
                          generator=torch.Generator().manual_seed(0))  # zh: 打乱顺序可以复现 | en: reproducible shuffling

model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),
    nn.MaxPool2d(2), nn.Flatten(),
    nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
    nn.Linear(64, 10),
).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(20):
    model.train()
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(xb), yb).backward()
        optimizer.step()

model.eval()
with torch.no_grad():
    pred = model(X_test.to(device)).argmax(dim=1).cpu()

# %%
# zh: 每个 (真实类别, 预测类别) 对编成一个数 10 * true + pred，bincount 一次数完
# en: Encode each (true, predicted) pair as 10 * true + pred and count them all with bincount.
confusion = torch.bincount(10 * y_test + pred, minlength=100).reshape(10, 10)
print("rows: true digit, columns: predicted digit")
print("     " + " ".join(f"{c:3d}" for c in range(10)))
for t in range(10):
    print(f"{t:3d}: " + " ".join(f"{n:3d}" for n in confusion[t].tolist()))

# %%
# zh: 核对：对角线是预测对的数量，每行之和是测试集里该类的数量
# en: Checks: the diagonal counts the correct predictions, each row sums to that class's test count.
correct = (pred == y_test).sum().item()
assert confusion.trace().item() == correct
assert torch.equal(confusion.sum(dim=1), torch.bincount(y_test, minlength=10))
assert confusion.sum().item() == len(y_test)
print(f"correct: {correct}/{len(y_test)} = {correct / len(y_test):.4f}")

off = confusion.clone()
off.fill_diagonal_(0)
# zh: 非对角线上的非零项就是错误，按次数从多到少排列
# en: The non-zero entries off the diagonal are the mistakes, most frequent first.
mistakes = sorted(((n, t, p) for (t, p), n in zip(off.nonzero().tolist(), off[off > 0].tolist(), strict=True)), reverse=True)
print("mistakes (true -> predicted: count):", ", ".join(f"{t} -> {p}: {n}" for n, t, p in mistakes))
print("recall per digit:", [round(v, 2) for v in (confusion.diag() / confusion.sum(dim=1)).tolist()])
