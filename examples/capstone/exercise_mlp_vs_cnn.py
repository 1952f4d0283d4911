# /// example
# timeout = 120
# ///
# %%
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)
y = torch.tensor(digits.target, dtype=torch.long)
X_rest, X_test, y_rest, y_test = train_test_split(X, y, test_size=0.15, random_state=0, stratify=y)
X_train, X_val, y_train, y_val = train_test_split(
    X_rest, y_rest, test_size=len(y_test), random_state=0, stratify=y_rest)


def make(name):
    if name == "MLP":
        return nn.Sequential(
            nn.Flatten(), nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10))
    return nn.Sequential(
        nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
        nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),
        nn.MaxPool2d(2), nn.Flatten(),
        nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
        nn.Linear(64, 10))


def accuracy(model, images, labels):
    model.eval()
    with torch.no_grad():
        return (model(images.to(device)).argmax(dim=1).cpu() == labels).float().mean().item()


def train(name, seed, epochs=20, batch_size=64):
    torch.manual_seed(seed)  # zh: 种子决定初始权重 | en: the seed sets the initial weights
    model = make(name).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(seed)  # zh: ……也决定每轮的打乱顺序 | en: ... and the shuffling of every epoch
    xs, ys = X_train.to(device), y_train.to(device)
    for _ in range(epochs):
        model.train()
        # zh: 与 DataLoader(shuffle=True, batch_size=64) 相同的小批量，只是省掉逐个样本取数的开销
        # en: The same mini-batches as DataLoader(shuffle=True, batch_size=64), without its per-sample overhead.
        order = torch.randperm(len(ys), generator=g).to(device)
        for i in range(0, len(ys), batch_size):
            idx = order[i:i + batch_size]
            optimizer.zero_grad()
            nn.functional.cross_entropy(model(xs[idx]), ys[idx]).backward()
            optimizer.step()
    return model


# zh: 比较只看验证集（测试集此时还没有碰过），每种模型用 3 个种子各训练一次
# en: Compare on the validation set only (the test set is still untouched), training each model with 3 seeds.
seeds = (0, 1, 2)
runs = {}
for name in ("MLP", "CNN"):
    runs[name] = [train(name, seed) for seed in seeds]
    accs = torch.tensor([accuracy(m, X_val, y_val) for m in runs[name]])
    params = sum(p.numel() for p in runs[name][0].parameters())
    print(f"{name}: {params} parameters, validation accuracy per seed",
          [round(a, 4) for a in accs.tolist()], f"mean {accs.mean():.4f}, range {accs.max() - accs.min():.4f}")

# %%
mean_acc = {name: sum(accuracy(m, X_val, y_val) for m in models) / len(models) for name, models in runs.items()}
winner = max(mean_acc, key=mean_acc.get)
gap = abs(mean_acc["MLP"] - mean_acc["CNN"])
print(f"chosen on validation: {winner} (difference of the means {gap:.4f})")
# zh: 只有选中的模型在测试集上评估，只此一次：取它验证准确率最高的那次训练
# en: Only the chosen model is evaluated on the test set, once: its run with the best validation accuracy.
best = max(runs[winner], key=lambda m: accuracy(m, X_val, y_val))
print(f"{winner} test accuracy: {accuracy(best, X_test, y_test):.4f}")
