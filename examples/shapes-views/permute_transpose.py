# %%
import torch

# zh: 图片库常用 (高, 宽, 通道)，PyTorch 的卷积层要 (通道, 高, 宽)
# en: Image libraries often use (height, width, channels); PyTorch's conv layers want (channels, height, width).
hwc = torch.arange(2 * 3 * 3).reshape(2, 3, 3)
chw = hwc.permute(2, 0, 1)  # zh: 新的第 i 维取原来的第 permute[i] 维 | en: new dim i is old dim permute[i]
print("hwc:", tuple(hwc.shape), " chw:", tuple(chw.shape))
print("pixel (1, 2) in hwc:", hwc[1, 2].tolist(), " in chw:", chw[:, 1, 2].tolist())

# %%
# zh: transpose 只交换两个维度；permute 能任意重排
# en: transpose swaps two dims; permute reorders them all.
t = torch.zeros(2, 3, 4)
print("transpose(0, 2):", tuple(t.transpose(0, 2).shape))
print("permute(2, 1, 0):", tuple(t.permute(2, 1, 0).shape))
print("mT (last two):", tuple(t.mT.shape))

# %%
# zh: 两者都只改步长，不搬数据，结果通常不连续
# en: Both only change the strides, moving no data, and the result is usually not contiguous.
print("hwc stride:", hwc.stride(), " contiguous:", hwc.is_contiguous())
print("chw stride:", chw.stride(), " contiguous:", chw.is_contiguous())
c = chw.contiguous()  # zh: 按新顺序复制一份 | en: a copy in the new order
print("after contiguous():", c.stride(), c.is_contiguous())

# %% raises="RuntimeError"
# zh: 不连续的张量不能 view 成一维
# en: A non-contiguous tensor cannot be viewed as 1-D.
chw.view(-1)
