# %%
import torch
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)


class Squares(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, idx):
        x = torch.tensor([float(idx)])
        return x, x**2


ds = Squares()
loader = DataLoader(ds, batch_size=4)  # zh: 默认 shuffle=False, drop_last=False | en: shuffle=False, drop_last=False
print("len(loader):", len(loader))
for xb, yb in loader:
    print("x:", xb.squeeze(1).tolist(), " xb.shape:", tuple(xb.shape), " yb.shape:", tuple(yb.shape))

# %%
loader = DataLoader(ds, batch_size=4, drop_last=True)  # zh: 丢掉不满的最后一批 | en: drop the short last batch
print("len(loader):", len(loader))
print([xb.squeeze(1).tolist() for xb, _ in loader])


# %%
def epoch_order(seed):
    g = torch.Generator().manual_seed(seed)
    loader = DataLoader(ds, batch_size=4, shuffle=True, generator=g)
    return [[int(v) for v in xb.squeeze(1)] for xb, _ in loader]


print("seed 0:", epoch_order(0))
print("seed 0:", epoch_order(0))  # zh: 同一个种子，同样的顺序 | en: same seed, same order
print("seed 1:", epoch_order(1))

# %%
g = torch.Generator().manual_seed(0)
loader = DataLoader(ds, batch_size=4, shuffle=True, generator=g)
for epoch in range(2):  # zh: 每个轮次一个新的排列 | en: a new permutation every epoch
    print(f"epoch {epoch}:", [[int(v) for v in xb.squeeze(1)] for xb, _ in loader])
