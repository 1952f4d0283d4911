# /// example
# timeout = 120
# ///
# %%
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(worker, world_size=2):
    os.environ["TORCH_CPP_LOG_LEVEL"] = "ERROR"  # zh: 见本章第一个示例 | en: see the chapter's first example
    queue = mp.get_context("spawn").SimpleQueue()
    mp.spawn(worker, args=(world_size, free_port(), queue), nprocs=world_size, join=True)
    results = dict(queue.get() for _ in range(world_size))
    return [results[rank] for rank in range(world_size)]


def make_dataset():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(8, 3, generator=g)
    # zh: 第一列是样本编号，方便看出每个 rank 用了哪些样本
    # en: The first column is the sample index, to show which samples each rank used.
    return TensorDataset(torch.arange(8), x, x @ torch.tensor([[1.0], [-2.0], [0.5]]))


def train(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    ddp = DDP(nn.Linear(3, 1))
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.1)
    # zh: bug：没有 DistributedSampler，每个 rank 都遍历整个数据集
    # en: The bug: no DistributedSampler, so every rank walks the whole dataset.
    loader = DataLoader(make_dataset(), batch_size=4, shuffle=False)
    log = {"batches": [], "local grad == DDP grad": []}
    for idx, x, y in loader:
        log["batches"].append(idx.tolist())
        local = nn.Linear(3, 1)
        local.load_state_dict(ddp.module.state_dict())
        nn.functional.mse_loss(local(x), y).backward()
        optimizer.zero_grad()
        nn.functional.mse_loss(ddp(x), y).backward()
        log["local grad == DDP grad"].append(torch.allclose(local.weight.grad, ddp.module.weight.grad))
        optimizer.step()
    log["weight after 1 epoch"] = [round(w, 4) for w in ddp.module.weight.flatten().tolist()]

    # zh: 只加 shuffle=True 也不行：每个 rank 每个 epoch 仍要走完全部 8 个样本，同一步的两个批量还可能重叠
    # en: shuffle=True alone does not fix it: each rank still walks all 8 samples per epoch, and the two batches of one step may overlap.
    torch.manual_seed(rank)
    log["shuffled batches"] = [idx.tolist() for idx, _, _ in DataLoader(make_dataset(), batch_size=4, shuffle=True)]
    queue.put((rank, log))
    dist.destroy_process_group()


if __name__ == "__main__":
    logs = launch(train)
    for key in ["batches", "local grad == DDP grad", "weight after 1 epoch"]:
        print(key)
        for rank, log in enumerate(logs):
            print(f"  rank {rank}: {log[key]}")

# %%
if __name__ == "__main__":
    # zh: 单进程、同样的批量，训练结果完全一样：第二个进程白干了
    # en: One process with the same batches ends up exactly the same: the second process did nothing useful.
    torch.manual_seed(0)
    single = nn.Linear(3, 1)
    optimizer = torch.optim.SGD(single.parameters(), lr=0.1)
    for _, x, y in DataLoader(make_dataset(), batch_size=4, shuffle=False):
        optimizer.zero_grad()
        nn.functional.mse_loss(single(x), y).backward()
        optimizer.step()
    print("1 process, same batches:", [round(w, 4) for w in single.weight.flatten().tolist()])

# %%
if __name__ == "__main__":
    for rank, log in enumerate(logs):
        print(f"shuffle=True, rank {rank}: {log['shuffled batches']}")
    for step, (a, b) in enumerate(zip(logs[0]["shuffled batches"], logs[1]["shuffled batches"], strict=True)):
        print(f"step {step}: samples in both ranks' batches: {sorted(set(a) & set(b))}")
