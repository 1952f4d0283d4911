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
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard


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


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))


def make_data():
    g = torch.Generator().manual_seed(0)
    return torch.randn(8, 4, generator=g), torch.randn(8, 2, generator=g)


def shard(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    model = make_model()
    # zh: 两个进程组成的一维设备网格，放在 CPU 上（gloo）；不指定时，有 GPU 的机器上 fully_shard 会把参数移到 GPU
    # en: A one-dimensional mesh of the two processes, on the CPU (gloo); without it, fully_shard moves the
    # en: parameters to the GPU on a machine that has one.
    mesh = init_device_mesh("cpu", (world_size,))
    # zh: 先切每一层，再切整个模型：前向时一层一层地把参数临时拼完整
    # en: Shard each layer, then the whole model: the forward pass gathers full parameters one layer at a time.
    fully_shard(model[0], mesh=mesh)
    fully_shard(model[2], mesh=mesh)
    fully_shard(model, mesh=mesh)
    log = {"model class": type(model).__name__, "params": {}}
    for name, p in model.named_parameters():
        log["params"][name] = (type(p).__name__, tuple(p.shape), tuple(p.to_local().shape), str(p.placements))
    log["numbers stored"] = sum(p.to_local().numel() for p in model.parameters())

    x, y = make_data()
    x, y = x[rank::world_size], y[rank::world_size]  # zh: 和 DDP 一样，每个 rank 一半数据 | en: as with DDP, half the data per rank
    nn.functional.mse_loss(model(x), y).backward()
    grad = model[0].weight.grad
    log["grad of 0.weight"] = (type(grad).__name__, tuple(grad.to_local().shape))
    log["full grad row 0"] = grad.full_tensor()[0].tolist()  # zh: full_tensor() 做一次 all_gather | en: full_tensor() all-gathers

    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    optimizer.step()
    exp_avg = optimizer.state[model[0].weight]["exp_avg"]  # zh: Adam 的一阶矩 | en: Adam's first moment
    log["Adam exp_avg of 0.weight"] = (type(exp_avg).__name__, tuple(exp_avg.to_local().shape))
    queue.put((rank, log))
    dist.destroy_process_group()


if __name__ == "__main__":
    logs = launch(shard)
    print("model class:", logs[0]["model class"])
    for name, (kind, full, _, placements) in logs[0]["params"].items():
        local = [log["params"][name][2] for log in logs]
        print(f"{name:9} {kind} {full} {placements}: local shape per rank {local}")
    for key in ["grad of 0.weight", "Adam exp_avg of 0.weight"]:
        print(f"{key}: local shape per rank", [log[key] for log in logs])

# %%
if __name__ == "__main__":
    # zh: 单进程、整批数据的对照：拼回完整的梯度后，和它一样
    # en: A single-process, full-batch reference: the gathered gradient matches it.
    model = make_model()
    x, y = make_data()
    nn.functional.mse_loss(model(x), y).backward()
    print("1 process, full batch:", [round(g, 4) for g in model[0].weight.grad[0].tolist()])
    for rank, log in enumerate(logs):
        print(f"FSDP, rank {rank}:      ", [round(g, 4) for g in log["full grad row 0"]])
        torch.testing.assert_close(torch.tensor(log["full grad row 0"]), model[0].weight.grad[0])
    print("numbers in the model:", sum(p.numel() for p in model.parameters()))
    print("numbers stored per rank:", [log["numbers stored"] for log in logs])
