# %%
# zh: 本例故意在 CPU 上运行：同样的错误在 GPU 上是 "device-side assert"，会让整个进程的 CUDA 上下文失效
# en: on the CPU on purpose: on a GPU the same mistakes are a "device-side assert", which breaks the
# en: CUDA context of the whole process
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
logits = torch.randn(4, 5)  # zh: 4 个样本，5 个类别：合法的标签是 0 到 4 | en: 4 samples, 5 classes: valid labels are 0 to 4
print("classes:", logits.shape[1])

# %% raises="IndexError"
# zh: 标签 5 超出范围（比如标签从 1 开始编号）
# en: label 5 is out of range (labels numbered from 1, say)
F.cross_entropy(logits, torch.tensor([0, 1, 5, 2]))

# %% raises="IndexError"
# zh: 词表有 10 个词，下标 10 越界
# en: a vocabulary of 10 tokens: index 10 is out of range
embedding = nn.Embedding(10, 3)
embedding(torch.tensor([3, 10]))

# %% raises="ValueError"
# zh: 输入和标签的批大小不同（比如标签多拼接了一次）
# en: the input and the labels have different batch sizes (labels concatenated twice, say)
F.cross_entropy(torch.randn(32, 5), torch.randint(0, 5, (64,)))

# %% raises="RuntimeError"
# zh: 卷积层检查输入和参数的类型：float64 的输入遇到 float32 的参数
# en: a convolution checks the input against its parameters: a float64 input meets float32 parameters
conv = nn.Conv2d(3, 4, kernel_size=3)
conv(torch.randn(1, 3, 8, 8, dtype=torch.float64))

# %%
# zh: 找出越界的标签：在调用损失之前检查范围
# en: finding the bad label: check the range before calling the loss
labels = torch.tensor([0, 1, 5, 2])
bad = (labels < 0) | (labels >= logits.shape[1])
print("labels out of range at positions:", bad.nonzero().flatten().tolist(), "values:", labels[bad].tolist())
