# /// example
# timeout = 120
# ///
# %%
import datetime
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(worker, world_size=2):
    # zh: 和上一个示例一样：每个进程把结果放进队列，父进程按 rank 排序后打印
    # en: As in the previous example: each process puts its results in a queue, the parent prints them by rank.
    os.environ["TORCH_CPP_LOG_LEVEL"] = "ERROR"  # zh: 见本章第一个示例 | en: see the chapter's first example
    queue = mp.get_context("spawn").SimpleQueue()
    mp.spawn(worker, args=(world_size, free_port(), queue), nprocs=world_size, join=True)
    results = dict(queue.get() for _ in range(world_size))
    return [results[rank] for rank in range(world_size)]


def collectives(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    log = {}

    t = torch.tensor([rank + 1.0, 10.0 * (rank + 1)])
    log["all_reduce SUM"] = [t.tolist()]
    dist.all_reduce(t)  # zh: 默认求和，就地改写 t | en: sums by default, overwriting t in place
    log["all_reduce SUM"].append(t.tolist())

    t = torch.tensor([3.0, 1.0]) if rank == 0 else torch.tensor([2.0, 5.0])
    log["all_reduce MAX"] = [t.tolist()]
    dist.all_reduce(t, op=dist.ReduceOp.MAX)  # zh: 逐元素取最大 | en: element-wise maximum
    log["all_reduce MAX"].append(t.tolist())

    t = torch.arange(3.0) + 100 if rank == 0 else torch.zeros(3)
    log["broadcast src=0"] = [t.tolist()]
    dist.broadcast(t, src=0)  # zh: 所有进程都拿到 rank 0 的值 | en: every rank receives rank 0's values
    log["broadcast src=0"].append(t.tolist())

    t = torch.full((2,), float(rank))
    # zh: 事先准备好 world_size 个形状相同的张量来接收
    # en: Pre-allocate world_size tensors of the same shape to receive into.
    gathered = [torch.empty(2) for _ in range(world_size)]
    dist.all_gather(gathered, t)
    log["all_gather"] = [t.tolist(), [g.tolist() for g in gathered]]

    # zh: 任意可 pickle 的 Python 对象也能收集，长度可以不同
    # en: Any picklable Python object can be gathered too, even of different lengths.
    objects = [None] * world_size
    dist.all_gather_object(objects, {"rank": rank, "letters": "ab"[: rank + 1]})
    log["all_gather_object"] = [None, objects]

    queue.put((rank, log))
    dist.destroy_process_group()


if __name__ == "__main__":
    logs = launch(collectives)
    for op in logs[0]:
        print(op)
        for rank, log in enumerate(logs):
            before, after = log[op]
            print(f"  rank {rank}: {before} -> {after}" if before is not None else f"  rank {rank}: {after}")


# %%
def mismatch(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    # zh: 一个超时只有 2 秒的新组，下面的等待才不会太久（默认的超时长得多）
    # en: A new group whose timeout is only 2 seconds, so the wait below stays short (the default is much longer).
    group = dist.new_group(timeout=datetime.timedelta(seconds=2))
    # zh: bug：rank 1 调用 all_reduce，rank 0 却调用 barrier，两边在等不同的集合通信
    # en: The bug: rank 1 calls all_reduce while rank 0 calls barrier, so each waits for a different collective.
    try:
        if rank == 1:
            dist.all_reduce(torch.ones(1), group=group)
        else:
            dist.barrier(group=group)
        result = "finished"
    except RuntimeError as error:
        result = "RuntimeError: " + str(error).split("] ")[-1]  # zh: 去掉 C++ 源文件路径 | en: drop the C++ source path
    queue.put((rank, result))
    dist.destroy_process_group()


if __name__ == "__main__":
    for rank, result in enumerate(launch(mismatch)):
        print(f"rank {rank}: {result}")
