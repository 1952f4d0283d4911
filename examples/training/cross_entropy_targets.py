# %%
import torch
from torch import nn

torch.manual_seed(0)
criterion = nn.CrossEntropyLoss()
logits = torch.randn(4, 3)  # zh: 4 个样本、3 个类别的原始分数 | en: raw scores of 4 samples over 3 classes
# zh: 从 NumPy 或 pandas 来的标签常常是浮点数
# en: Labels from NumPy or pandas often arrive as floats.
labels = torch.tensor([0.0, 2.0, 1.0, 1.0])
print(labels.dtype)

# %% raises="RuntimeError"
criterion(logits, labels)

# %% raises="RuntimeError"
criterion(logits, labels.int())  # zh: int32 也不行 | en: int32 is refused too

# %%
# zh: 类别索引要用 long（int64）
# en: Class indices must be long (int64).
print(criterion(logits, labels.long()))

# %%
# zh: CrossEntropyLoss 自己会做 log_softmax：传入原始分数，不要先做 softmax
# en: CrossEntropyLoss applies log_softmax itself: pass the raw scores, without a softmax first.
confident = torch.tensor([[8.0, 0.0, 0.0]])  # zh: 很有把握、而且猜对了类别 0 | en: sure of class 0, and right
target = torch.tensor([0])
print("logits:         ", criterion(confident, target))
print("softmax(logits):", criterion(confident.softmax(dim=1), target))
