# %%
import torch

a = torch.zeros(2, 3)
b = torch.ones(2, 3)

# zh: cat 沿已有的维度拼接，维数不变
# en: cat joins along an existing dim; the number of dims stays.
print("cat dim=0  :", tuple(torch.cat([a, b], dim=0).shape))
print("cat dim=1  :", tuple(torch.cat([a, b], dim=1).shape))

# zh: stack 新建一个维度把张量叠起来，维数加一
# en: stack adds a new dim and piles the tensors along it; one more dim.
print("stack dim=0:", tuple(torch.stack([a, b], dim=0).shape))
print("stack dim=1:", tuple(torch.stack([a, b], dim=1).shape))
print("stack dim=2:", tuple(torch.stack([a, b], dim=2).shape))

# %%
# zh: stack 等于先 unsqueeze 再 cat
# en: stack is unsqueeze, then cat.
same = torch.equal(torch.stack([a, b], dim=1), torch.cat([a.unsqueeze(1), b.unsqueeze(1)], dim=1))
print("stack == unsqueeze + cat:", same)

# zh: 常见用法：把一个个样本叠成一个批量
# en: A common use: piling single samples into a batch.
samples = [torch.randn(3, 8, 8) for _ in range(4)]
print("batch:", tuple(torch.stack(samples).shape))

# %% raises="RuntimeError"
# zh: stack 要求所有张量形状完全相同
# en: stack needs every tensor to have exactly the same shape.
torch.stack([torch.zeros(2, 3), torch.zeros(3, 3)])
