# %%
import torch
from torch.utils.data import DataLoader, TensorDataset

# zh: 52 张 28x28 的灰度图，每批 32 张：最后一批只剩 20 张
# en: 52 grayscale 28x28 images in batches of 32: the last batch holds only 20.
images = torch.zeros(52, 1, 28, 28)
loader = DataLoader(TensorDataset(images), batch_size=32)
for (x,) in loader:
    print("batch", tuple(x.shape), " elements:", x.numel(), " 32 * 784 =", 32 * 784)

# %% raises="RuntimeError"
for (x,) in loader:
    flat = x.view(32, 784)  # zh: 把批量大小写死成 32 | en: the batch size hard-coded as 32
    print("view(32, 784) ok:", tuple(flat.shape))

# %%
# zh: 批量维从张量本身读取，只展平其余的维度
# en: Read the batch dim from the tensor itself and flatten only the rest.
for (x,) in loader:
    print(tuple(x.view(x.size(0), -1).shape), tuple(x.flatten(1).shape), tuple(torch.nn.Flatten()(x).shape))

# %%
# zh: view(-1, 784) 也不报错，但每个样本的大小不对时，它悄悄改变了批量大小
# en: view(-1, 784) raises nothing either, but when a sample has the wrong size it silently changes the batch size.
rgb = torch.zeros(20, 3, 28, 28)  # zh: 误传了三通道图像 | en: 3-channel images passed by mistake
print("view(-1, 784):", tuple(rgb.view(-1, 784).shape))
print("flatten(1)   :", tuple(rgb.flatten(1).shape))
