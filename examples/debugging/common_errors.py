# %%
import torch
from torch import nn

torch.manual_seed(0)
layer = nn.Linear(4, 2)  # weight has shape (2, 4): it expects inputs of shape (N, 4)
print("weight:", tuple(layer.weight.shape), layer.weight.dtype)

# %% raises="RuntimeError"
# the last dimension of the input must equal in_features
layer(torch.randn(8, 3))

# %% raises="RuntimeError"
# NumPy arrays are float64; torch.from_numpy keeps that dtype
import numpy as np

batch = torch.from_numpy(np.random.default_rng(0).normal(size=(8, 4)))
print("batch dtype:", batch.dtype)
layer(batch)

# %%
print(layer(batch.float()).shape)  # or torch.tensor(array, dtype=torch.float32)

# %% raises="RuntimeError"
# class indices for cross_entropy must be integers (int64)
logits = torch.randn(4, 3)
labels = torch.tensor([0.0, 2.0, 1.0, 2.0])
nn.functional.cross_entropy(logits, labels)

# %% raises="RuntimeError"
# Conv2d wants (N, C, H, W); an image stored as (N, H, W, C) fails
conv = nn.Conv2d(3, 8, kernel_size=3)
images = torch.rand(2, 28, 28, 3)
conv(images)

# %%
print(conv(images.permute(0, 3, 1, 2)).shape)

# %% raises="RuntimeError"
# view needs compatible strides; a transposed tensor is not contiguous
torch.randn(4, 3).t().view(12)

# %%
import warnings

# the worst shape bug raises nothing: (N, 1) against (N,) broadcasts to (N, N)
pred, target = torch.randn(4, 1), torch.randn(4)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrong = nn.functional.mse_loss(pred, target)
print("warning:", caught[0].message)
print("wrong loss:", round(wrong.item(), 4), " right loss:", round(nn.functional.mse_loss(pred.squeeze(1), target).item(), 4))
print("(pred - target) has shape", tuple((pred - target).shape))
