# %%
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Augment(Dataset):
    # zh: 数据集自带一个 NumPy 生成器，每次取样抽一个“增强参数”
    # en: The dataset owns a NumPy generator and draws one "augmentation parameter" per item.
    def __init__(self):
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return int(self.rng.integers(1000))


def reseed(worker_id):
    # zh: 每个 worker 启动时用它自己的种子（base_seed + worker_id）换一个新的生成器
    # en: As each worker starts, give it a new generator from its own seed (base_seed + worker_id).
    info = get_worker_info()
    info.dataset.rng = np.random.default_rng(info.seed)


def two_epochs(**kwargs):
    loader = DataLoader(Augment(), batch_size=2, num_workers=2, generator=torch.Generator().manual_seed(0), **kwargs)
    return [torch.cat(list(loader)).tolist() for _ in range(2)]  # zh: 批量 0 来自 worker 0，批量 1 来自 worker 1 | en: batch 0 from worker 0, batch 1 from worker 1


for persistent in (False, True):
    for init in (None, reseed):
        e1, e2 = two_epochs(persistent_workers=persistent, worker_init_fn=init)
        print(f"persistent={persistent!s:5s} worker_init_fn={init.__name__ if init else None!s:6s}  epoch 1 {e1}  epoch 2 {e2}"
              f"  workers repeat each other: {e1[:2] == e1[2:]}  epoch 2 repeats epoch 1: {e1 == e2}")

# %%
# zh: 修好的版本可以复现：DataLoader 的 generator 决定每一轮的 base_seed
# en: The fixed version is reproducible: the DataLoader's generator decides every epoch's base_seed.
print("same run again, same numbers:", two_epochs(worker_init_fn=reseed) == two_epochs(worker_init_fn=reseed))
