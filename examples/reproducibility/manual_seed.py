# /// example
# timeout = 120
# ///
# %% volatile=true
import subprocess
import sys

# zh: 同一段代码在两个全新的进程里各跑一次，比较打印出来的数
# en: Run the same code in two fresh processes and compare what they print.
child = """
import random
import numpy as np
import torch
print("  no seed        torch:", torch.rand(3).tolist())
torch.manual_seed(0)
print("  manual_seed(0) torch:", torch.rand(3).tolist())
print("  manual_seed(0) python random: %.6f  numpy: %.6f" % (random.random(), np.random.rand()))
"""
for run in (1, 2):
    print(f"run {run}:")
    print(subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True).stdout, end="")

# %%
import random

import numpy as np
import torch
from torch import nn


def seed_everything(seed):
    # zh: torch.manual_seed 只管 PyTorch（CPU 和所有 GPU）；Python 和 NumPy 各有自己的生成器
    # en: torch.manual_seed covers PyTorch (CPU and every GPU); Python and NumPy have generators of their own.
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def train_once():
    # zh: 用到随机数的三处：初始权重、数据、dropout
    # en: Three users of randomness: initial weights, data, dropout.
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 1))
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(20):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return torch.cat([p.detach().flatten() for p in model.parameters()])


seed_everything(0)
a = train_once()
b = train_once()  # zh: 没有重新播种：生成器接着往下走 | en: not re-seeded: the generator just carries on
seed_everything(0)
c = train_once()
print("run 1 vs run 2, seeded once:        equal?", torch.equal(a, b))
print("run 1 vs run 3, re-seeded with 0:   equal?", torch.equal(a, c))
print("torch.initial_seed():", torch.initial_seed())
