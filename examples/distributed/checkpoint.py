# /// example
# timeout = 120
# ///
# %%
import os
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
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


def train_and_save(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    torch.manual_seed(0)
    ddp = DDP(nn.Linear(3, 1))
    optimizer = torch.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
    # zh: 每个 rank 用不同的数据走一步；梯度取平均后，两边的参数仍然相同
    # en: One step on different data per rank; with averaged gradients the parameters stay identical.
    g = torch.Generator().manual_seed(rank)
    x, y = torch.randn(4, 3, generator=g), torch.randn(4, 1, generator=g)
    nn.functional.mse_loss(ddp(x), y).backward()
    optimizer.step()
    log = {"ddp.state_dict()": list(ddp.state_dict()), "ddp.module.state_dict()": list(ddp.module.state_dict())}

    if rank == 0:
        time.sleep(1)  # zh: 让 rank 0 慢一点，等待才看得出来 | en: slow rank 0 down so the wait becomes visible
        checkpoint = {"model": ddp.module.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 0}
        torch.save(checkpoint, "checkpoint.pt")
        torch.save(ddp.state_dict(), "with_prefix.pt")  # zh: 反面例子，下面会用到 | en: a counter-example, used below
    log["file there before barrier"] = os.path.exists("checkpoint.pt")
    dist.barrier()  # zh: 谁先到谁等，直到所有 rank 都到这里 | en: whoever arrives first waits until every rank is here
    log["file there after barrier"] = os.path.exists("checkpoint.pt")

    # zh: GPU 上要写 map_location={"cuda:0": f"cuda:{local_rank}"}，别让每个进程都把张量放进 0 号 GPU
    # en: On GPUs, write map_location={"cuda:0": f"cuda:{local_rank}"} so that not every process loads onto GPU 0.
    checkpoint = torch.load("checkpoint.pt", map_location="cpu")
    fresh = nn.Linear(3, 1)
    fresh.load_state_dict(checkpoint["model"])
    same = all(torch.equal(a, b) for a, b in zip(fresh.parameters(), ddp.module.parameters(), strict=True))
    log["loaded == own parameters"] = same
    queue.put((rank, log))
    dist.destroy_process_group()


if __name__ == "__main__":
    logs = launch(train_and_save)
    for key in logs[0]:
        print(key)
        for rank, log in enumerate(logs):
            print(f"  rank {rank}: {log[key]}")

# %%
if __name__ == "__main__":
    # zh: 检查点里是普通模型的 state_dict：不需要进程组，也不需要 DDP 就能加载
    # en: The checkpoint holds a plain model's state_dict: it loads without a process group or DDP.
    checkpoint = torch.load("checkpoint.pt")
    model = nn.Linear(3, 1)
    print(model.load_state_dict(checkpoint["model"]))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    optimizer.load_state_dict(checkpoint["optimizer"])
    print("momentum buffer restored:", "momentum_buffer" in optimizer.state[model.weight])
    print("resume at epoch", checkpoint["epoch"] + 1)

# %% raises="RuntimeError"
if __name__ == "__main__":
    # zh: 保存的是 ddp.state_dict()，每个键都多了 "module." 前缀
    # en: Saving ddp.state_dict() instead puts a "module." prefix on every key.
    nn.Linear(3, 1).load_state_dict(torch.load("with_prefix.pt"))

# %%
if __name__ == "__main__":
    # zh: 已经存成这样的文件，可以先去掉前缀再加载
    # en: A file already saved that way loads once the prefix is stripped.
    state = torch.load("with_prefix.pt")
    nn.modules.utils.consume_prefix_in_state_dict_if_present(state, "module.")
    print(list(state), nn.Linear(3, 1).load_state_dict(state))
