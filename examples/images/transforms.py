# %%
import math

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from sklearn.datasets import load_sample_images

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
path = load_sample_images().filenames[1]  # zh: flower.jpg | en: flower.jpg
pil = Image.open(path).convert("RGB")
x = torch.from_numpy(np.array(pil)).permute(2, 0, 1).float().div(255).to(device)  # zh: (3, 427, 640) | en: (3, 427, 640)

# zh: 缩放：F.interpolate 要 4 维输入 (N, C, H, W)；antialias=True 缩小时先做低通滤波
# en: Resize: F.interpolate wants a 4-D (N, C, H, W) input; antialias=True low-pass filters when shrinking.
small = F.interpolate(x.unsqueeze(0), size=(64, 96), mode="bilinear", antialias=True, align_corners=False)[0]
aliased = F.interpolate(x.unsqueeze(0), size=(64, 96), mode="bilinear", antialias=False, align_corners=False)[0]
# zh: Pillow 的 resize 参数是 (宽, 高)
# en: Pillow's resize takes (width, height).
pil_small = pil.resize((96, 64), Image.Resampling.BILINEAR)
ref = torch.from_numpy(np.array(pil_small)).permute(2, 0, 1).float().div(255).to(device)
print("resized:", tuple(small.shape))
print(f"mean |torch - Pillow| with antialias:    {(small - ref).abs().mean().item():.4f}")
print(f"mean |torch - Pillow| without antialias: {(aliased - ref).abs().mean().item():.4f}")


# %%
def random_crop(x, size, generator):
    h, w = size
    top = int(torch.randint(0, x.shape[-2] - h + 1, (1,), generator=generator))
    left = int(torch.randint(0, x.shape[-1] - w + 1, (1,), generator=generator))
    return x[..., top:top + h, left:left + w]  # zh: 切片是视图，不拷贝 | en: a slice is a view: no copy


def hflip(x):
    return x.flip(-1)  # zh: 沿宽度方向翻转 | en: flip along the width


g = torch.Generator().manual_seed(0)
crop = random_crop(x, (200, 200), g)
print("crop:", tuple(crop.shape), " shares memory with x:", crop.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print("flip twice is the identity:", torch.equal(hflip(hflip(crop)), crop))
print("first column becomes the last:", torch.equal(hflip(crop)[..., -1], crop[..., 0]))


# %%
def rotate(x, degrees, scale=1.0, translate=(0.0, 0.0)):
    # zh: affine_grid 的坐标在 [-1, 1] 里：theta 把输出的每个像素映射到输入中的取样位置
    # en: affine_grid works in [-1, 1] coordinates: theta maps each output pixel to where it samples the input.
    a = math.radians(degrees)
    h, w = x.shape[-2:]
    cos, sin = math.cos(a) / scale, math.sin(a) / scale
    # zh: 按宽高比修正，避免剪切
    # en: Corrected for the aspect ratio, so there is no shear.
    theta = torch.tensor([[cos, -sin * h / w, translate[0]],
                          [sin * w / h, cos, translate[1]]], dtype=x.dtype, device=x.device)
    grid = F.affine_grid(theta.unsqueeze(0), (1, *x.shape), align_corners=False)
    return F.grid_sample(x.unsqueeze(0), grid, mode="bilinear", padding_mode="zeros",
                         align_corners=False)[0]


print(f"rotate by 0 degrees, max change: {(rotate(crop, 0) - crop).abs().max().item():.1e}")
r90 = rotate(crop, 90)
print("rotate by 90 degrees == torch.rot90:", torch.allclose(r90, torch.rot90(crop, 1, dims=(-2, -1)), atol=1e-5))


# %%
def color_jitter(x, brightness, contrast, saturation):
    x = x * brightness  # zh: 亮度：整体乘一个系数 | en: brightness: scale everything
    gray = (0.299 * x[0] + 0.587 * x[1] + 0.114 * x[2]).unsqueeze(0)  # zh: 亮度通道 | en: luminance
    x = (x - gray.mean()) * contrast + gray.mean()  # zh: 对比度：拉开或压近平均灰度 | en: contrast: stretch around the mean grey
    gray = (0.299 * x[0] + 0.587 * x[1] + 0.114 * x[2]).unsqueeze(0)
    x = (x - gray) * saturation + gray  # zh: 饱和度：在彩色和灰度之间插值 | en: saturation: blend between colour and grey
    return x.clamp(0, 1)


print("factors 1, 1, 1 leave the image unchanged:", torch.allclose(color_jitter(crop, 1, 1, 1), crop, atol=1e-6))
no_colour = color_jitter(crop, 1, 1, 0)
print("saturation 0 makes R, G and B equal:",
      torch.allclose(no_colour[0], no_colour[1]) and torch.allclose(no_colour[1], no_colour[2]))

# %% caption="One crop under each transform" caption_zh="同一张图片经过每种变换后的一个裁剪"
import matplotlib.pyplot as plt

views = {"crop": crop, "flip": hflip(crop), "rotate 15°": rotate(crop, 15), "rotate 90°": r90,
         "brighter": color_jitter(crop, 1.4, 1, 1), "low contrast": color_jitter(crop, 1, 0.5, 1),
         "saturation 2": color_jitter(crop, 1, 1, 2), "saturation 0": no_colour}
fig, axes = plt.subplots(2, 4, figsize=(6, 3.4))
for ax, (name, img) in zip(axes.flat, views.items(), strict=True):
    # zh: 缩小后再画，图片文件小一些；画图前换回 HWC
    # en: Shrunk to keep the figure file small, and back to HWC for plotting.
    thumb = F.interpolate(img.unsqueeze(0), size=(48, 48), mode="area")[0]
    ax.imshow(thumb.permute(1, 2, 0).clamp(0, 1).cpu(), interpolation="nearest")
    ax.set_title(name)
    ax.axis("off")
fig.tight_layout()
plt.show()
