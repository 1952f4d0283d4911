# %%
import torch
from torch import nn

x = torch.linspace(-3, 3, 7)
print("x:         ", x)
for act in [nn.ReLU(), nn.LeakyReLU(0.1), nn.Sigmoid(), nn.Tanh(), nn.GELU(), nn.SiLU()]:
    print(f"{type(act).__name__:10s}", act(x).round(decimals=3))

# %%
# zh: 函数形式算的是同样的结果，不需要模块
# en: the functional forms compute the same thing, without a module
print(torch.equal(torch.relu(x), nn.ReLU()(x)), torch.equal(nn.functional.gelu(x), nn.GELU()(x)))

# zh: Softmax 要指定 dim：输出的每一行加起来等于 1
# en: Softmax needs a dim: each row of the output sums to 1
logits = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
probs = nn.Softmax(dim=1)(logits)
print(probs)
print("row sums:", probs.sum(dim=1))

# %% caption="Common activation functions" caption_zh="常用的激活函数"
import matplotlib.pyplot as plt

xs = torch.linspace(-4, 4, 200)
fig, ax = plt.subplots(figsize=(6, 3.5))
for act in [nn.ReLU(), nn.LeakyReLU(0.1), nn.Sigmoid(), nn.Tanh(), nn.GELU()]:
    ax.plot(xs, act(xs), label=type(act).__name__)
ax.set_xlabel("x")
ax.set_ylabel("activation(x)")
ax.set_ylim(-1.5, 4)
ax.grid(alpha=0.3)
ax.legend()
plt.show()
