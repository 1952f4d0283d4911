# %%
from pathlib import Path

import numpy as np
import torch
from PIL import Image
from sklearn.datasets import load_sample_images
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: 先做一个“一类一个文件夹”的小数据集：把两张照片各切成 6 块 PNG
# en: First a small "one folder per class" dataset: cut each photo into 6 PNG tiles.
root = Path("tiles")
for path in load_sample_images().filenames:
    name = Path(path).stem  # zh: "china" 或 "flower" | en: "china" or "flower"
    (root / name).mkdir(parents=True, exist_ok=True)
    photo = Image.open(path).convert("RGB")
    for k in range(6):
        r, c = divmod(k, 3)
        photo.crop((c * 213, r * 213, c * 213 + 213, r * 213 + 213)).save(root / name / f"{k}.png")
print(sorted(str(p) for p in root.rglob("*.png"))[:3], "...", len(list(root.rglob("*.png"))), "files")


# %%
class ImageFolderDataset(Dataset):
    def __init__(self, root, transform):
        self.classes = sorted(d.name for d in Path(root).iterdir() if d.is_dir())
        self.samples = [(p, i) for i, c in enumerate(self.classes) for p in sorted((Path(root) / c).glob("*.png"))]
        self.transform = transform

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, index):
        path, label = self.samples[index]
        image = Image.open(path).convert("RGB")  # zh: 用到时才读文件 | en: read the file only when it is needed
        return self.transform(image), label  # zh: 每次取样都重新随机增强 | en: a fresh random augmentation on every access


def to_tensor(image):
    return torch.from_numpy(np.array(image)).permute(2, 0, 1).float().div(255)


def train_transform(image):
    x = to_tensor(image)
    top, left = torch.randint(0, x.shape[1] - 160 + 1, (2,)).tolist()  # zh: 随机裁剪 160x160 | en: random 160x160 crop
    x = x[:, top:top + 160, left:left + 160]
    if torch.rand(1).item() < 0.5:
        x = x.flip(-1)
    return (x - 0.5) / 0.25


def eval_transform(image):
    x = to_tensor(image)
    o = (x.shape[1] - 160) // 2  # zh: 评估时取中间，没有随机性 | en: a centre crop for evaluation: no randomness
    return (x[:, o:o + 160, o:o + 160] - 0.5) / 0.25


train_ds = ImageFolderDataset(root, train_transform)
eval_ds = ImageFolderDataset(root, eval_transform)
print("classes:", train_ds.classes, " samples:", len(train_ds), " first:", train_ds.samples[0])
x1, y1 = train_ds[0]
x2, y2 = train_ds[0]
print("item 0:", tuple(x1.shape), "label", y1, " two reads differ:", not torch.equal(x1, x2))
print("eval transform, two reads equal:", torch.equal(eval_ds[0][0], eval_ds[0][0]))

# %%
loader = DataLoader(train_ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
for epoch in range(2):
    for i, (xb, yb) in enumerate(loader):
        xb, yb = xb.to(device), yb.to(device)  # zh: 批量整体搬到设备上 | en: the whole batch moves to the device
        if i == 0:
            print(f"epoch {epoch}: batch {tuple(xb.shape)} {xb.dtype}, labels {yb.tolist()}")
    print(f"epoch {epoch}: {i + 1} batches")
