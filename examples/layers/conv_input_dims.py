# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
conv = nn.Conv2d(in_channels=1, out_channels=4, kernel_size=3).to(device)
image = torch.rand(28, 28, device=device)  # zh: 一张 28×28 的灰度图：只有高和宽 | en: one 28x28 grayscale image: height and width only
print("image:", tuple(image.shape), " conv.weight:", tuple(conv.weight.shape))

# %% raises="RuntimeError"
# zh: Conv2d 要求 (C, H, W) 或 (N, C, H, W)，二维的 (H, W) 不行
# en: Conv2d wants (C, H, W) or (N, C, H, W); a 2-D (H, W) is refused
conv(image)

# %%
# zh: 补上通道维：(1, 28, 28) 是不带批量的一张图
# en: add the channel dim: (1, 28, 28) is one image without a batch
print("(1, 28, 28)    ->", tuple(conv(image.unsqueeze(0)).shape))
# zh: 再补上批量维：(1, 1, 28, 28)
# en: add the batch dim too: (1, 1, 28, 28)
print("(1, 1, 28, 28) ->", tuple(conv(image[None, None]).shape))

# %% raises="RuntimeError"
# zh: 一批 8 张灰度图 (8, 28, 28) 是三维的，会被当成 8 个通道的一张图
# en: a batch of 8 grayscale images, (8, 28, 28), is 3-D: it is read as one image with 8 channels
batch = torch.rand(8, 28, 28, device=device)
conv(batch)

# %%
print("(8, 1, 28, 28) ->", tuple(conv(batch.unsqueeze(1)).shape))  # zh: 通道维插在第 1 维 | en: channel dim inserted at dim 1
