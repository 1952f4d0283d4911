# %%
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

# zh: 传入 num_replicas 和 rank，采样器不需要进程组，在一个进程里就能看清每个 rank 分到什么
# en: Given num_replicas and rank, the sampler needs no process group, so one process can show what each rank gets.
dataset = TensorDataset(torch.arange(10))
samplers = [DistributedSampler(dataset, num_replicas=2, rank=rank, shuffle=True, seed=0) for rank in range(2)]
for rank, sampler in enumerate(samplers):
    print(f"rank {rank}: {list(sampler)}")
together = sorted(list(samplers[0]) + list(samplers[1]))
print("together:", together)

# %%
# zh: 不调用 set_epoch，每个 epoch 的顺序都一样；调用后，每个 epoch 换一种打乱方式
# en: Without set_epoch every epoch has the same order; with it, each epoch is shuffled differently.
print("no set_epoch, epoch 0:", list(samplers[0]))
print("no set_epoch, epoch 1:", list(samplers[0]))
for epoch in range(3):
    for sampler in samplers:
        sampler.set_epoch(epoch)  # zh: 每个 rank 都要调用，参数相同 | en: on every rank, with the same value
    print(f"set_epoch({epoch}):", [list(s) for s in samplers])

# %%
# zh: shuffle=False 时按 rank 交错取，而不是切成连续的两半
# en: With shuffle=False the ranks take interleaved indices, not two contiguous halves.
for rank in range(2):
    print(f"shuffle=False, rank {rank}:", list(DistributedSampler(dataset, num_replicas=2, rank=rank, shuffle=False)))

# %%
# zh: 9 个样本分给 2 个 rank：默认补齐（重复开头的样本），drop_last=True 则丢掉多出的
# en: 9 samples over 2 ranks: by default the sampler pads (repeating samples from the start); drop_last=True drops the extra one.
nine = TensorDataset(torch.arange(9))
for drop_last in (False, True):
    shards = [list(DistributedSampler(nine, 2, rank, shuffle=False, drop_last=drop_last)) for rank in range(2)]
    print(f"drop_last={drop_last}: {shards}, {sum(map(len, shards))} samples in all")

# %%
# zh: 在训练里，采样器交给 DataLoader（此时不要再传 shuffle=True）
# en: In training the sampler goes to the DataLoader (which then must not get shuffle=True).
sampler = DistributedSampler(dataset, num_replicas=2, rank=1, shuffle=True, seed=0)
loader = DataLoader(dataset, batch_size=2, sampler=sampler)
print("rank 1 batches:", [batch.tolist() for (batch,) in loader], "len(loader) =", len(loader))

# %% raises="ValueError"
# zh: sampler 已经决定了顺序，再传 shuffle=True 会报错
# en: The sampler already decides the order, so shuffle=True as well is an error.
DataLoader(dataset, batch_size=2, sampler=sampler, shuffle=True)

# %% raises="ValueError"
# zh: 不传 num_replicas 和 rank 时，采样器向默认进程组询问；没有进程组就报错
# en: Without num_replicas and rank the sampler asks the default process group, and there is none here.
DistributedSampler(dataset)
