# /// example
# timeout = 120
# ///
# %%
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

torch.manual_seed(0)


class GlobalNumpyNoise(Dataset):
    """Each sample: (index, worker id, a random "augmentation" from NumPy's global generator)."""

    def __len__(self):
        return 4

    def __getitem__(self, i):
        return i, get_worker_info().id, np.random.randint(1000)


class OwnRngNoise(GlobalNumpyNoise):
    """The same, but the dataset keeps its own NumPy generator, created once in the main process."""

    def __init__(self):
        self.rng = np.random.default_rng(0)

    def __getitem__(self, i):
        return i, get_worker_info().id, int(self.rng.integers(1000))


def two_epochs(dataset, **kwargs):
    # zh: 2 个工作进程，每个批量 2 个样本：工作进程 0 取样本 0、1，工作进程 1 取样本 2、3
    # en: 2 workers, 2 samples a batch: worker 0 loads samples 0 and 1, worker 1 loads 2 and 3.
    loader = DataLoader(dataset, batch_size=2, num_workers=2, **kwargs)
    epochs = []
    for epoch in range(2):
        noise = {}
        for _, worker, value in loader:
            noise[f"worker {worker[0].item()}"] = value.tolist()
        print(f"  epoch {epoch}: {noise}")
        epochs.append(noise)
    return epochs


print("NumPy's global generator (PyTorch seeds it in every worker):")
two_epochs(GlobalNumpyNoise())
print("the dataset's own np.random.default_rng(0):")
e = two_epochs(OwnRngNoise())
print("worker 0 == worker 1?", e[0]["worker 0"] == e[0]["worker 1"], "  epoch 0 == epoch 1?", e[0] == e[1])


# %%
# zh: 修复：在每个工作进程启动时，用 torch.initial_seed() 重新播种数据集自己的生成器。
# zh: 在工作进程里，它等于 base_seed + worker_id，而 base_seed 每轮都从 DataLoader 的 generator 重新抽取。
# en: The fix: when each worker starts, re-seed the dataset's own generator from torch.initial_seed().
# en: Inside a worker it is base_seed + worker_id, and base_seed is drawn afresh each epoch from the loader's generator.
def seed_worker(worker_id):
    info = get_worker_info()
    info.dataset.rng = np.random.default_rng(torch.initial_seed())  # zh: info.dataset 是这个工作进程里的副本 | en: this worker's copy


runs = []
for run in (1, 2):
    print(f"run {run}, worker_init_fn=seed_worker, generator seeded with 0:")
    runs.append(two_epochs(OwnRngNoise(), worker_init_fn=seed_worker, generator=torch.Generator().manual_seed(0)))
e = runs[0]
print("worker 0 == worker 1?", e[0]["worker 0"] == e[0]["worker 1"], "  epoch 0 == epoch 1?", e[0] == e[1],
      "  run 1 == run 2?", runs[0] == runs[1])
