# %%
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class GlobalRNG:
    def __call__(self):
        return torch.randint(0, 10**6, (1,)).item()  # zh: 全局随机数生成器 | en: the global generator


class OwnGenerator:
    def __init__(self, seed):
        self.g = torch.Generator().manual_seed(seed)  # zh: 自带的生成器：会被复制进每个 worker | en: its own generator: copied into every worker

    def __call__(self):
        return torch.randint(0, 10**6, (1,), generator=self.g).item()


class Draws(Dataset):
    # zh: 每个样本返回一次“增强参数”的随机抽样，以及是哪个 worker 抽的
    # en: Each item returns one random draw (standing in for augmentation parameters) and which worker drew it.
    def __init__(self, draw):
        self.draw = draw

    def __len__(self):
        return 8

    def __getitem__(self, index):
        info = get_worker_info()
        return self.draw(), info.id, info.seed


def run(draw, seed=0, worker_init_fn=None):
    loader = DataLoader(Draws(draw), batch_size=2, num_workers=2, generator=torch.Generator().manual_seed(seed),
                        worker_init_fn=worker_init_fn)
    values, workers, seeds = (torch.cat(t).tolist() for t in zip(*loader, strict=True))
    return values, workers, seeds


values, workers, seeds = run(GlobalRNG())
print("workers:", workers)
print("worker seeds:", sorted(set(seeds)))
print("global generator:", values)
own, _, _ = run(OwnGenerator(seed=123))
print("own generator:   ", own)
print("own generator repeats its draws across workers:", own[0:2] == own[2:4])

# %%
# zh: DataLoader 的 generator 决定各 worker 的种子：同一个种子，两次运行完全一样
# en: The DataLoader's generator decides the worker seeds: the same seed gives identical runs.
again, _, seeds_again = run(GlobalRNG())
print("same DataLoader seed, same draws:", again == values, " same worker seeds:", seeds_again == seeds)
other, _, _ = run(GlobalRNG(), seed=1)
print("another seed, different draws:", other != values)


# %%
# zh: 修复自带生成器的写法：在 worker_init_fn 里用该 worker 的种子重新设置它
# en: Fixing the own-generator version: reseed it from the worker's seed in worker_init_fn.
def reseed(worker_id):
    info = get_worker_info()
    info.dataset.draw.g.manual_seed(info.seed)


fixed, _, _ = run(OwnGenerator(seed=123), worker_init_fn=reseed)
print("own generator, reseeded:", fixed)
print("repeats across workers:", fixed[0:2] == fixed[2:4],
      " reproducible:", run(OwnGenerator(seed=123), worker_init_fn=reseed)[0] == fixed)
