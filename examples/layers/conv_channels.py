# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 为 RGB 图片写的第一层：in_channels=3
# en: A first layer written for RGB images: in_channels=3.
conv = nn.Conv2d(in_channels=3, out_channels=16, kernel_size=3).to(device)
gray = torch.rand(8, 1, 28, 28, device=device)  # zh: 一批 8 张灰度图，只有 1 个通道 | en: a batch of 8 grayscale images, 1 channel
print("conv.weight:", tuple(conv.weight.shape), " gray:", tuple(gray.shape))

# %% raises="RuntimeError"
conv(gray)

# %%
# zh: 办法一：数据本来就是灰度的，就让第一层接受 1 个通道
# en: Fix 1: the data is grayscale, so make the first layer take 1 channel.
gray_conv = nn.Conv2d(in_channels=1, out_channels=16, kernel_size=3).to(device)
print("in_channels=1: ", tuple(gray_conv(gray).shape))
# zh: 办法二：模型要 3 个通道（例如在 RGB 上预训练的模型），就把灰度通道复制 3 份
# en: Fix 2: the model needs 3 channels (say, one pretrained on RGB), so copy the gray channel 3 times.
rgb = gray.repeat(1, 3, 1, 1)
print("repeat(1, 3, 1, 1):", tuple(rgb.shape), "->", tuple(conv(rgb).shape))
print("the 3 channels are equal:", torch.equal(rgb[:, 0], rgb[:, 2]))
