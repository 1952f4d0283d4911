# /// example
# timeout = 120
# ///
# %%
import copy
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


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


def fmt(values):
    return "[" + ", ".join(f"{v:7.4f}" for v in values) + "]"


def make_dataset():
    # zh: 每个进程都用同一个种子生成同一份数据：8 个样本，3 个特征
    # en: Every process builds the same data from the same seed: 8 samples, 3 features.
    g = torch.Generator().manual_seed(0)
    x = torch.randn(8, 3, generator=g)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.1 * torch.randn(8, 1, generator=g)
    return TensorDataset(x, y)


loss_fn = nn.MSELoss()


def train(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    log = {}

    torch.manual_seed(rank)  # zh: 故意让两个 rank 的初始权重不同 | en: deliberately different initial weights per rank
    model = nn.Linear(3, 1)
    log["weight before DDP"] = model.weight.detach().flatten().tolist()
    ddp = DDP(model)  # zh: CPU 上不传 device_ids | en: no device_ids on the CPU
    log["weight after DDP"] = model.weight.detach().flatten().tolist()  # zh: ddp.module 就是 model | en: ddp.module is model

    dataset = make_dataset()
    sampler = DistributedSampler(dataset, shuffle=True, seed=0)  # zh: rank 和总数取自进程组 | en: rank and count come from the group
    loader = DataLoader(dataset, batch_size=4, sampler=sampler)
    (x, y), = loader  # zh: 每个 rank 正好一个批量 | en: exactly one batch per rank
    log["indices"] = list(sampler)

    # zh: 对照：同样的权重、同样的批量，不经过 DDP，只有本地梯度
    # en: For comparison: same weights, same batch, no DDP, so only the local gradient.
    plain = copy.deepcopy(model)
    loss_fn(plain(x), y).backward()
    log["local grad"] = plain.weight.grad.flatten().tolist()

    loss_fn(ddp(x), y).backward()  # zh: backward 期间 DDP 对梯度做 all_reduce 取平均 | en: during backward DDP all-reduces and averages the grads
    log["DDP grad"] = model.weight.grad.flatten().tolist()

    # zh: 训练 3 个 epoch，每个 epoch 先 set_epoch
    # en: Train for 3 epochs, calling set_epoch first in each.
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            loss_fn(ddp(x), y).backward()
            optimizer.step()
    log["weight after training"] = model.weight.detach().flatten().tolist()

    queue.put((rank, log))  # zh: 只放列表这样的普通数据 | en: plain data such as lists only
    dist.destroy_process_group()


if __name__ == "__main__":
    logs = launch(train)
    for key in ["weight before DDP", "weight after DDP", "indices", "local grad", "DDP grad"]:
        print(key)
        for rank, log in enumerate(logs):
            print(f"  rank {rank}:", log[key] if key == "indices" else fmt(log[key]))

# %%
if __name__ == "__main__":
    # zh: 单进程对照：同样的初始权重（种子 0，和 rank 0 一样），一次用上全部 8 个样本
    # en: Single-process reference: the same initial weights (seed 0, like rank 0), all 8 samples in one batch.
    torch.manual_seed(0)
    single = nn.Linear(3, 1)
    x, y = make_dataset().tensors
    loss_fn(single(x), y).backward()
    full_grad = single.weight.grad.flatten()
    print("mean of the local grads:", fmt(torch.tensor([log["local grad"] for log in logs]).mean(0)))
    print("full-batch grad:        ", fmt(full_grad))
    for rank, log in enumerate(logs):
        gap = (torch.tensor(log["DDP grad"]) - full_grad).abs().max().item()
        print(f"rank {rank}: DDP grad - full-batch grad, largest gap < 1e-6:", gap < 1e-6)

    # zh: 每个 epoch 两个 rank 合起来恰好把 8 个样本各用一次，所以等价于单进程用整批训练
    # en: Each epoch the two ranks together use each of the 8 samples once, so this equals single-process full-batch training.
    optimizer = torch.optim.SGD(single.parameters(), lr=0.1)
    for _ in range(3):
        optimizer.zero_grad()
        loss_fn(single(x), y).backward()
        optimizer.step()
    print("after 3 epochs, 1 process:", fmt(single.weight.detach().flatten()))
    for rank, log in enumerate(logs):
        print(f"after 3 epochs, rank {rank}: ", fmt(log["weight after training"]))
        torch.testing.assert_close(torch.tensor(log["weight after training"]), single.weight.detach().flatten())
