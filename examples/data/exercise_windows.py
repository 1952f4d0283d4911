# %%
import math

import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


# zh: 一维序列上的滑动窗口：输入 k 个值，目标是紧随其后的那个值
# en: Sliding windows over a 1-D series: k values in, the next value as the target.
class Windows(Dataset):
    def __init__(self, series, k):
        self.series, self.k = series, k

    def __len__(self):
        # zh: 最后一个窗口还要留一个目标值
        # en: The last window needs a target after it.
        return len(self.series) - self.k

    def __getitem__(self, idx):
        if not 0 <= idx < len(self):
            raise IndexError(idx)
        return self.series[idx : idx + self.k], self.series[idx + self.k]


series = torch.arange(20, dtype=torch.float32)
ds = Windows(series, k=5)
print("len(ds):", len(ds))
print("ds[0]:", ds[0])
print("ds[14]:", ds[14])
assert len(ds) == 15

# %%
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(0))
sizes = [len(yb) for _, yb in loader]
print("len(loader):", len(loader), " batch sizes:", sizes)
assert len(loader) == math.ceil(len(ds) / 4) and sizes[-1] == len(ds) % 4

# zh: 一个轮次里每个样本恰好出现一次，且输入和目标仍然对得上
# en: In one epoch every sample appears exactly once, and inputs still match their targets.
targets = []
for xb, yb in loader:
    assert xb.shape[1:] == (5,)
    assert torch.equal(yb, xb[:, -1] + 1)
    targets += yb.tolist()
print("targets seen:", sorted(targets) == [float(i) for i in range(5, 20)])
