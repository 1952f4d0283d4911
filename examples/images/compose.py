# %%
import math

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image
from sklearn.datasets import load_sample_images

torch.manual_seed(0)


# zh: 每个变换是一个可调用的类；随机数取自全局的 torch 随机数生成器（原因见下文的 DataLoader 一节）
# en: Each transform is a callable class; randomness comes from torch's global generator (why: see the DataLoader section).
class ToTensor:
    def __call__(self, image):  # zh: PIL 或 HWC uint8 -> CHW float in [0, 1] | en: PIL or HWC uint8 -> CHW float in [0, 1]
        return torch.from_numpy(np.array(image)).permute(2, 0, 1).float().div(255)


class RandomResizedCrop:
    def __init__(self, size, scale=(0.08, 1.0), ratio=(3 / 4, 4 / 3)):
        self.size, self.scale, self.log_ratio = size, scale, (math.log(ratio[0]), math.log(ratio[1]))

    def __call__(self, x):
        H, W = x.shape[-2:]
        for _ in range(10):  # zh: 抽一个面积比例和宽高比，放得下就用 | en: draw an area fraction and an aspect ratio; use it if it fits
            area = H * W * torch.empty(1).uniform_(*self.scale).item()
            aspect = math.exp(torch.empty(1).uniform_(*self.log_ratio).item())
            w, h = round(math.sqrt(area * aspect)), round(math.sqrt(area / aspect))
            if 0 < w <= W and 0 < h <= H:
                top = torch.randint(0, H - h + 1, (1,)).item()
                left = torch.randint(0, W - w + 1, (1,)).item()
                break
        else:  # zh: 十次都放不下：取中间最大的正方形 | en: ten misses: take the largest centred square
            h = w = min(H, W)
            top, left = (H - h) // 2, (W - w) // 2
        patch = x[:, top:top + h, left:left + w].unsqueeze(0)
        return F.interpolate(patch, size=self.size, mode="bilinear", antialias=True, align_corners=False)[0]


class RandomHorizontalFlip:
    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, x):
        return x.flip(-1) if torch.rand(1).item() < self.p else x


class RandomRotation:
    def __init__(self, degrees):
        self.degrees = degrees

    def __call__(self, x):
        a = math.radians(torch.empty(1).uniform_(-self.degrees, self.degrees).item())
        h, w = x.shape[-2:]
        theta = torch.tensor([[math.cos(a), -math.sin(a) * h / w, 0.0],
                              [math.sin(a) * w / h, math.cos(a), 0.0]], dtype=x.dtype, device=x.device)
        grid = F.affine_grid(theta.unsqueeze(0), (1, *x.shape), align_corners=False)
        return F.grid_sample(x.unsqueeze(0), grid, padding_mode="reflection", align_corners=False)[0]


class ColorJitter:
    def __init__(self, brightness=0.0, contrast=0.0, saturation=0.0):
        self.b, self.c, self.s = brightness, contrast, saturation

    @staticmethod
    def gray(x):
        return (0.299 * x[0] + 0.587 * x[1] + 0.114 * x[2]).unsqueeze(0)

    def __call__(self, x):
        def factor(amount):  # zh: 在 [1 - amount, 1 + amount] 里均匀取一个系数 | en: uniform in [1 - amount, 1 + amount]
            return torch.empty(1).uniform_(1 - amount, 1 + amount).item()

        x = (x * factor(self.b)).clamp(0, 1)
        m = self.gray(x).mean()
        x = ((x - m) * factor(self.c) + m).clamp(0, 1)
        g = self.gray(x)
        return ((x - g) * factor(self.s) + g).clamp(0, 1)


class Normalize:
    def __init__(self, mean, std):
        self.mean, self.std = torch.tensor(mean).view(-1, 1, 1), torch.tensor(std).view(-1, 1, 1)

    def __call__(self, x):
        return (x - self.mean.to(x.device)) / self.std.to(x.device)


class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, x):
        for t in self.transforms:  # zh: 依次调用，上一个的输出是下一个的输入 | en: in order: each output feeds the next
            x = t(x)
        return x

    def __repr__(self):
        return "Compose(" + ", ".join(type(t).__name__ for t in self.transforms) + ")"


# %%
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]  # zh: 常用的 ImageNet 统计量 | en: the usual ImageNet statistics
train_transform = Compose([
    ToTensor(),
    RandomResizedCrop((48, 48), scale=(0.1, 0.6)),
    RandomHorizontalFlip(),
    RandomRotation(10),
    ColorJitter(brightness=0.3, contrast=0.3, saturation=0.3),
    Normalize(MEAN, STD),
])
print(train_transform)
image = Image.open(load_sample_images().filenames[0]).convert("RGB")  # zh: china.jpg | en: china.jpg
out = train_transform(image)
print("output:", tuple(out.shape), out.dtype, f"range [{out.min():.2f}, {out.max():.2f}]")
a, b = train_transform(image), train_transform(image)
print("two calls give different crops:", not torch.equal(a, b))
torch.manual_seed(42)
c = train_transform(image)
torch.manual_seed(42)
print("same seed, same crop:", torch.equal(c, train_transform(image)))

# %% caption="Sixteen augmented 48x48 crops of china.jpg" caption_zh="china.jpg 的 16 个经过增强的 48×48 裁剪"
import matplotlib.pyplot as plt

mean, std = torch.tensor(MEAN).view(-1, 1, 1), torch.tensor(STD).view(-1, 1, 1)
torch.manual_seed(0)
fig, axes = plt.subplots(2, 8, figsize=(7, 2))
for ax in axes.flat:
    crop = train_transform(image) * std + mean  # zh: 画图前撤销 Normalize | en: undo Normalize for display
    ax.imshow(crop.permute(1, 2, 0).clamp(0, 1), interpolation="nearest")
    ax.axis("off")
fig.tight_layout()
plt.show()
