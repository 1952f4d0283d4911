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
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.nn.parallel import DistributedDataParallel as DDP


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


def make_data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(8, 3, generator=g)
    return x, x @ torch.tensor([[1.0], [-2.0], [0.5]])


def accumulate(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    ddp = DDP(nn.Linear(3, 1))
    # zh: 通信钩子照常做 all_reduce，只是顺便数一数调用了几次
    # en: A communication hook that does the usual all_reduce and counts how often it runs.
    calls = []

    def counting_hook(state, bucket):
        calls.append(1)
        return default_hooks.allreduce_hook(state, bucket)

    ddp.register_comm_hook(None, counting_hook)
    x, y = make_data()
    x, y = x[rank::world_size], y[rank::world_size]  # zh: 本 rank 的 4 个样本 | en: this rank's 4 samples
    micro = list(zip(x.chunk(2), y.chunk(2), strict=True))  # zh: 拆成 2 个小批量 | en: split into 2 micro-batches
    log = {}

    # zh: 写法一：每个小批量的 backward 都同步一次
    # en: Version 1: every micro-batch's backward synchronises.
    for xb, yb in micro:
        (nn.functional.mse_loss(ddp(xb), yb) / len(micro)).backward()
    log["without no_sync"] = (len(calls), ddp.module.weight.grad.flatten().tolist())

    # zh: 写法二：前面的小批量放进 no_sync()，只在本地累加；最后一个 backward 才同步
    # en: Version 2: the earlier micro-batches run inside no_sync() and only accumulate locally; the last backward syncs.
    ddp.zero_grad()
    calls.clear()
    with ddp.no_sync():
        xb, yb = micro[0]
        (nn.functional.mse_loss(ddp(xb), yb) / len(micro)).backward()
    log["inside no_sync (local)"] = (len(calls), ddp.module.weight.grad.flatten().tolist())
    xb, yb = micro[1]
    (nn.functional.mse_loss(ddp(xb), yb) / len(micro)).backward()
    log["with no_sync"] = (len(calls), ddp.module.weight.grad.flatten().tolist())
    queue.put((rank, log))
    dist.destroy_process_group()


if __name__ == "__main__":
    logs = launch(accumulate)
    for key in logs[0]:
        print(key)
        for rank, log in enumerate(logs):
            n, grad = log[key]
            print(f"  rank {rank}: {n} all_reduce call(s), weight grad", [round(g, 4) for g in grad])

    torch.manual_seed(0)
    single = nn.Linear(3, 1)
    x, y = make_data()
    nn.functional.mse_loss(single(x), y).backward()
    print("full batch, 1 process:  weight grad", [round(g, 4) for g in single.weight.grad.flatten().tolist()])
    for log in logs:
        torch.testing.assert_close(torch.tensor(log["with no_sync"][1]), single.weight.grad.flatten())
        torch.testing.assert_close(torch.tensor(log["without no_sync"][1]), single.weight.grad.flatten())
