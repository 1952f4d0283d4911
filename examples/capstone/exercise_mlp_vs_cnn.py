# /// example
# timeout = 120
# ///
# %%
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)
y = torch.tensor(digits.target, dtype=torch.long)
X_rest, X_test, y_rest, y_test = train_test_split(X, y, test_size=0.15, random_state=0, stratify=y)
X_train, X_val, y_train, y_val = train_test_split(
    X_rest, y_rest, test_size=len(y_test), random_state=0, stratify=y_rest)


def accuracy(model, images, labels):
    model.eval()
    with torch.no_grad():
        return (model(images.to(device)).argmax(dim=1).cpu() == labels).float().mean().item()


def train(model, epochs=20):
    loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True,
                        generator=torch.Generator().manual_seed(0))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(epochs):
        model.train()
        for xb, yb in loader:
            xb, yb = xb.to(device), yb.to(device)
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(xb), yb).backward()
            optimizer.step()
    return model


torch.manual_seed(0)
candidates = {
    "MLP": nn.Sequential(
        nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10)),
    "CNN": nn.Sequential(
        nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Flatten(),
        nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
        nn.Linear(64, 10)),
}
# zh: 比较只看验证集：测试集此时还没有碰过
# en: Compare on the validation set only: the test set is still untouched.
val_acc = {}
for name, model in candidates.items():
    params = sum(p.numel() for p in model.parameters())
    train(model.to(device))
    val_acc[name] = accuracy(model, X_val, y_val)
    print(f"{name}: {params} parameters, validation accuracy {val_acc[name]:.4f}")

# %%
winner = max(val_acc, key=val_acc.get)
print("chosen on validation:", winner)
# zh: 只有选中的模型在测试集上评估，只此一次
# en: Only the chosen model is evaluated on the test set, once.
print(f"{winner} test accuracy: {accuracy(candidates[winner], X_test, y_test):.4f}")
