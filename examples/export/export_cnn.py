# /// example
# timeout = 120
# ///
# %%
import torch
from sklearn.datasets import load_digits
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)  # zh: 形状 (N, 1, 8, 8) | en: (N, 1, 8, 8)
y = torch.tensor(digits.target)

# zh: 综合实战的卷积网络，简单训练几轮，让预测有意义
# en: the capstone's CNN, trained briefly so that its predictions mean something
model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),
    nn.MaxPool2d(2), nn.Flatten(),
    nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
    nn.Linear(64, 10),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(5):
    for i in torch.randperm(len(X)).split(64):
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(X[i]), y[i]).backward()
        optimizer.step()
model.eval()
print("training accuracy:", round((model(X).argmax(1) == y).float().mean().item(), 3))

# %%
example = X[:4]
ep = torch.export.export(model, (example,))
print(type(ep).__name__)
print(ep)

# %%
exported = ep.module()  # zh: 一个运行这张图的 nn.Module | en: an nn.Module that runs the graph
with torch.inference_mode():
    print("same logits:", torch.equal(exported(example), model(example)))
    print("predictions:", exported(example).argmax(1).tolist(), " labels:", y[:4].tolist())

# %% raises="AssertionError"
# zh: 示例输入的批量大小 4 成了程序的一部分
# en: the batch size 4 of the example input became part of the program
exported(X[:5])

# %%
batch = torch.export.Dim("batch")
ep = torch.export.export(model, (example,), dynamic_shapes=({0: batch},))
print("input shape in the program:", ep.module().graph.find_nodes(op="placeholder")[-1].meta["val"].shape)
print("range of the batch size:", ep.range_constraints)
with torch.inference_mode():
    for n in (1, 5, 100):
        print(n, "images:", torch.allclose(ep.module()(X[:n]), model(X[:n])))

# %% warns="UserWarning"
import os
import tempfile

with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "digits_cnn.pt2")
    torch.export.save(ep, path)
    print("saved", os.path.basename(path), f"({os.path.getsize(path) // 1024} KiB)")
    reloaded = torch.export.load(path)  # zh: 加载时不需要 Python 类 | en: no Python class needed to load it
with torch.inference_mode():
    print("reloaded, same logits:", torch.equal(reloaded.module()(X[:8]), model(X[:8])))
