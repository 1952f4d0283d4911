# %%
import torch
from torch import nn

torch.manual_seed(0)
layer = nn.Linear(4, 2)  # zh: weight 的形状是 (2, 4)：输入应为 (N, 4) | en: weight has shape (2, 4): it expects inputs of shape (N, 4)
print("weight:", tuple(layer.weight.shape), layer.weight.dtype)

# %% raises="RuntimeError"
# zh: 输入的最后一维必须等于 in_features
# en: the last dimension of the input must equal in_features
layer(torch.randn(8, 3))

# %% raises="RuntimeError"
# zh: NumPy 数组默认是 float64，torch.from_numpy 保留这个 dtype
# en: NumPy arrays are float64; torch.from_numpy keeps that dtype
import numpy as np

batch = torch.from_numpy(np.random.default_rng(0).normal(size=(8, 4)))
print("batch dtype:", batch.dtype)
layer(batch)

# %%
print(layer(batch.float()).shape)  # zh: 或者 torch.tensor(array, dtype=torch.float32) | en: or torch.tensor(array, dtype=torch.float32)

# %% raises="RuntimeError"
# zh: cross_entropy 的类别下标必须是整数（int64）
# en: class indices for cross_entropy must be integers (int64)
logits = torch.randn(4, 3)
labels = torch.tensor([0.0, 2.0, 1.0, 2.0])
nn.functional.cross_entropy(logits, labels)

# %% raises="RuntimeError"
# zh: Conv2d 要求 (N, C, H, W)；按 (N, H, W, C) 存放的图像会报错
# en: Conv2d wants (N, C, H, W); an image stored as (N, H, W, C) fails
conv = nn.Conv2d(3, 8, kernel_size=3)
images = torch.rand(2, 28, 28, 3)
conv(images)

# %%
print(conv(images.permute(0, 3, 1, 2)).shape)

# %% raises="RuntimeError"
# zh: view 要求步长兼容；转置后的张量不连续
# en: view needs compatible strides; a transposed tensor is not contiguous
torch.randn(4, 3).t().view(12)

# %%
import warnings

# zh: 最糟的形状错误不报错：(N, 1) 和 (N,) 广播成 (N, N)
# en: the worst shape bug raises nothing: (N, 1) against (N,) broadcasts to (N, N)
pred, target = torch.randn(4, 1), torch.randn(4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrong = nn.functional.mse_loss(pred, target)
print("warning:", caught[0].message)
print("wrong loss:", round(wrong.item(), 4), " right loss:", round(nn.functional.mse_loss(pred.squeeze(1), target).item(), 4))
print("(pred - target) has shape", tuple((pred - target).shape))
