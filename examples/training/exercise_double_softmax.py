# %%
import math

import torch
from torch import nn

torch.manual_seed(0)
# zh: 三类、线性可分的二维数据
# en: Three linearly separable classes in 2-D.
centers = torch.tensor([[0.0, 3.0], [-3.0, -2.0], [3.0, -2.0]])
y = torch.arange(3).repeat_interleave(50)
X = centers[y] + 0.5 * torch.randn(150, 2)


def train(model, steps=300):
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(steps):
        loss = loss_fn(model(X), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


torch.manual_seed(1)
# zh: bug：多了一层 softmax
# en: The bug: an extra softmax.
buggy = train(nn.Sequential(nn.Linear(2, 3), nn.Softmax(dim=1)))
torch.manual_seed(1)
fixed = train(nn.Linear(2, 3))  # zh: 直接输出 logits | en: raw logits
print(f"with softmax layer: loss {buggy:.4f}")
print(f"raw logits:         loss {fixed:.4f}")

# %%
# zh: 概率在 [0, 1] 里，当作 logits 再做一次 softmax，正确类别的概率最多是 e / (e + C - 1)
# en: Probabilities lie in [0, 1]; fed to softmax again as logits, the right class gets at most e / (e + C - 1).
C = 3
floor = -math.log(math.e / (math.e + C - 1))
print(f"lowest loss possible with the extra softmax: {floor:.4f}")
assert buggy >= floor > fixed
