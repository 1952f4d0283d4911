# %%
import math

import numpy as np
import torch
import torch.nn.functional as F
from sklearn.datasets import load_sample_images

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
image = torch.from_numpy(np.array(load_sample_images().images[0])).permute(2, 0, 1).float().div(255).to(device)


def label_of(img):
    # zh: 一个从图像算出来的“分割标签”：明亮的像素（主要是天空）为 1
    # en: A "segmentation mask" computed from the image: bright pixels (mostly sky) are 1.
    return (img.mean(dim=0, keepdim=True) > 0.75).float()


mask = label_of(image)
print("image:", tuple(image.shape), " mask:", tuple(mask.shape), f" bright fraction {mask.mean().item():.3f}")


def draw_params(x, size=200):
    return (torch.randint(0, x.shape[1] - size + 1, (1,)).item(),
            torch.randint(0, x.shape[2] - size + 1, (1,)).item(), torch.rand(1).item() < 0.5)


def crop_flip(x, params, size=200):
    top, left, flip = params
    x = x[:, top:top + size, left:left + size]
    return x.flip(-1) if flip else x


def joint_crop_flip(img, msk):
    # zh: 只抽一次随机参数，图像和标签用同一组
    # en: Draw the random parameters once and use them for both image and mask.
    params = draw_params(img)
    return crop_flip(img, params), crop_flip(msk, params)


# zh: 错误的写法：图像和标签各自抽各自的参数
# en: The wrong way: image and mask each draw their own parameters.
separate = crop_flip(image, draw_params(image)), crop_flip(mask, draw_params(mask))
for name, (img, msk) in [("separate", separate), ("joint", joint_crop_flip(image, mask))]:
    agree = (label_of(img) == msk).float().mean().item()
    print(f"{name:8s}: mask still matches the image at {agree:.1%} of pixels")


# %%
# zh: 旋转：同一个 theta；图像用双线性，标签用最近邻，否则类别会被插值出小数
# en: Rotation: the same theta; bilinear for the image, nearest for the mask, or the classes get blended into fractions.
def rotate(x, degrees, mode):
    a = math.radians(degrees)
    theta = torch.tensor([[[math.cos(a), -math.sin(a) * x.shape[1] / x.shape[2], 0.0],
                           [math.sin(a) * x.shape[2] / x.shape[1], math.cos(a), 0.0]]], device=x.device)
    grid = F.affine_grid(theta, (1, *x.shape), align_corners=False)
    return F.grid_sample(x.unsqueeze(0), grid, mode=mode, align_corners=False)[0]


print("mask values, bilinear:", rotate(mask, 10, "bilinear").unique().numel(), "distinct")
print("mask values, nearest: ", rotate(mask, 10, "nearest").unique().tolist())
agree = (label_of(rotate(image, 10, "bilinear")) == rotate(mask, 10, "nearest")).float().mean().item()
print(f"rotated together: mask matches the rotated image at {agree:.1%} of pixels")
