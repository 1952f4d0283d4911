# %%
import numpy as np
import torch
from PIL import Image
from sklearn.datasets import load_sample_images

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: scikit-learn 自带两张照片，不用下载
# en: scikit-learn ships two photos: nothing to download.
sample = load_sample_images()
for path, array in zip(sample.filenames, sample.images, strict=True):
    print(path.rsplit("/", 1)[-1], array.shape, array.dtype, "min", array.min(), "max", array.max())

# zh: 它们就是 JPEG 文件，用 Pillow 打开得到同样的像素
# en: They are plain JPEG files; Pillow opens them to the same pixels.
pil = Image.open(sample.filenames[0])
print("PIL:", pil.mode, pil.size, "(width, height)")
print("same pixels as the array:", np.array_equal(np.asarray(pil), sample.images[0]))

# %% caption="The two sample images that ship with scikit-learn" caption_zh="scikit-learn 自带的两张示例图片：china.jpg 和 flower.jpg"
import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 2, figsize=(5.4, 1.9))
for ax, array, name in zip(axes, sample.images, ["china.jpg", "flower.jpg"], strict=True):
    # zh: matplotlib 要的是 HWC；缩小 4 倍再画，图片文件小一些
    # en: matplotlib wants HWC; shrunk 4x first to keep the figure file small.
    ax.imshow(np.asarray(Image.fromarray(array).reduce(4)), interpolation="nearest")
    ax.set_title(name)
    ax.axis("off")
fig.tight_layout()
plt.show()


# %%
def to_tensor(image):
    # zh: HWC uint8 (0..255) -> CHW float32 (0..1)，和 torchvision 的 ToImage + ToDtype(scale=True) 一样
    # en: HWC uint8 (0..255) -> CHW float32 (0..1), like torchvision's ToImage + ToDtype(scale=True).
    x = torch.from_numpy(np.array(image))  # zh: np.array 拷贝一份，张量可以写 | en: np.array copies, so the tensor is writable
    return x.permute(2, 0, 1).to(torch.float32) / 255


images = [to_tensor(Image.open(p).convert("RGB")) for p in sample.filenames]
x = images[0]
print("tensor:", tuple(x.shape), x.dtype, f"range [{x.min():.3f}, {x.max():.3f}]")
print("pixel (row 0, col 0) as HWC uint8:", sample.images[0][0, 0].tolist(),
      "-> CHW float:", [round(v, 4) for v in x[:, 0, 0].tolist()])

# %%
# zh: 逐通道的均值和标准差（这里用两张图的全部像素）
# en: Per-channel mean and std (here over every pixel of both images).
stacked = torch.stack(images)  # zh: (2, 3, H, W)，两张图一样大 | en: (2, 3, H, W): both have the same size
mean = stacked.mean(dim=(0, 2, 3))
std = stacked.std(dim=(0, 2, 3))
print("mean per channel (R, G, B):", [round(v, 4) for v in mean.tolist()])
print("std  per channel (R, G, B):", [round(v, 4) for v in std.tolist()])


def normalize(x, mean, std):
    # zh: view(-1, 1, 1) 让 (3,) 沿 H、W 广播
    # en: view(-1, 1, 1) broadcasts (3,) over H and W.
    return (x - mean.view(-1, 1, 1)) / std.view(-1, 1, 1)


z = normalize(stacked, mean, std).to(device)
print(f"after normalize, largest |mean|: {z.mean(dim=(0, 2, 3)).abs().max().item():.1e}")
print("after normalize, std:", [round(v, 4) for v in z.std(dim=(0, 2, 3)).tolist()])
