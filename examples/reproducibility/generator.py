# %%
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

# zh: 一个独立的生成器：它的随机数流不受全局生成器上的其他调用影响
# en: A generator of its own: its stream is untouched by other calls on the global generator.
g = torch.Generator().manual_seed(42)
print("g, first draw:         ", torch.randperm(8, generator=g).tolist())
g.manual_seed(42)
torch.rand(1000)  # zh: 全局生成器上的额外调用 | en: extra draws on the global generator
print("g, after global draws: ", torch.randperm(8, generator=g).tolist())

torch.manual_seed(42)
print("global, first draw:    ", torch.randperm(8).tolist())
torch.manual_seed(42)
torch.rand(1000)
print("global, after draws:   ", torch.randperm(8).tolist())

# %%
dataset = TensorDataset(torch.arange(12))


def first_batch(extra_layer, use_generator):
    torch.manual_seed(0)
    # zh: 模型初始化会消耗全局生成器；多一层就多消耗一些
    # en: Initialising a model consumes the global generator; one more layer consumes more.
    layers = [nn.Linear(4, 4)] + ([nn.Linear(4, 4)] if extra_layer else [])
    nn.Sequential(*layers)
    gen = torch.Generator().manual_seed(0) if use_generator else None
    loader = DataLoader(dataset, batch_size=6, shuffle=True, generator=gen)
    return next(iter(loader))[0].tolist()


for use_generator in (False, True):
    label = "generator=" if use_generator else "global RNG"
    print(f"{label:10s} | 1 layer: {first_batch(False, use_generator)} | 2 layers: {first_batch(True, use_generator)}")

# %%
# zh: random_split 也接受 generator：划分不受其他随机调用影响
# en: random_split takes a generator too: the split ignores other random calls.
for extra in (0, 1000):
    torch.rand(extra)
    train, test = random_split(range(10), [0.7, 0.3], generator=torch.Generator().manual_seed(0))
    print(f"after {extra:4d} global draws: test indices {list(test)}")
