# /// example
# timeout = 120
# ///
# %%
import os
import socket

import torch
import torch.distributed as dist
import torch.distributed.checkpoint as dcp
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.checkpoint.state_dict import get_state_dict, set_state_dict
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))


def make_batch(step):
    g = torch.Generator().manual_seed(step)
    return torch.randn(8, 4, generator=g), torch.randn(8, 2, generator=g)


def train_step(model, optimizer, step, rank=0, world_size=1):
    x, y = make_batch(step)
    # zh: 每个 rank 取一半数据，和分布式训练一章一样
    # en: Each rank takes half of the data, as in the distributed chapter.
    x, y = x[rank::world_size], y[rank::world_size]
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
    optimizer.zero_grad()


def worker(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    mesh = init_device_mesh("cpu", (world_size,))
    model = make_model()
    for layer in (model[0], model[2], model):
        fully_shard(layer, mesh=mesh)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    train_step(model, optimizer, 0, rank, world_size)

    # zh: get_state_dict 给出模型和优化器的状态字典，键是参数的全名，值是分片的 DTensor
    # en: get_state_dict gives the model's and the optimizer's state dicts, keyed by full parameter names,
    # en: with sharded DTensors as values.
    model_sd, optim_sd = get_state_dict(model, optimizer)
    w = model_sd["0.weight"]
    log = {"0.weight": (type(w).__name__, tuple(w.shape), tuple(w.to_local().shape), str(w.placements)),
           "optimizer keys": sorted(optim_sd["state"]["0.weight"])}
    # zh: 每个 rank 只写自己那一片；rank 0 另写一份元数据，记下每一片在完整张量里的位置
    # en: Every rank writes only its own shard; rank 0 also writes the metadata: where each shard sits in the full tensor.
    dcp.save({"model": model_sd, "optim": optim_sd}, checkpoint_id="ckpt")

    train_step(model, optimizer, 1, rank, world_size)  # zh: 再训练一步，留作对照 | en: one more step, for comparison
    log["after step 1"] = {k: v.full_tensor().tolist() for k, v in model.state_dict().items()}
    queue.put((rank, log))
    dist.destroy_process_group()


if __name__ == "__main__":
    os.environ["TORCH_CPP_LOG_LEVEL"] = "ERROR"  # zh: 见分布式训练一章 | en: see the distributed chapter
    queue = mp.get_context("spawn").SimpleQueue()
    mp.spawn(worker, args=(2, free_port(), queue), nprocs=2, join=True)
    logs = dict(queue.get() for _ in range(2))
    for rank in range(2):
        print(f"rank {rank}: 0.weight {logs[rank]['0.weight']}")
    print("optimizer state per parameter:", logs[0]["optimizer keys"])

# %%
if __name__ == "__main__":
    print("files:", sorted(os.listdir("ckpt")))
    metadata = dcp.FileSystemReader("ckpt").read_metadata()
    for key in ["model.0.weight", "model.0.bias", "optim.state.0.weight.exp_avg"]:
        entry = metadata.state_dict_metadata[key]
        chunks = [(tuple(c.offsets), tuple(c.sizes)) for c in entry.chunks]
        print(f"{key}: full shape {tuple(entry.size)}, chunks (offsets, sizes) {chunks}")

# %% warns="UserWarning"
if __name__ == "__main__":
    # zh: 换一种布局读回来：一个进程、普通模型、没有进程组。dcp.load 按元数据把两片拼进完整的张量
    # en: Read it back in another layout: one process, a plain model, no process group. dcp.load assembles the two
    # en: shards into the full tensors, guided by the metadata.
    model = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 2))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    model_sd, optim_sd = get_state_dict(model, optimizer)
    state = {"model": model_sd, "optim": optim_sd}
    dcp.load(state, checkpoint_id="ckpt")  # zh: 就地填进 state 里已有的张量 | en: fills the tensors already in state, in place
    set_state_dict(model, optimizer, model_state_dict=state["model"], optim_state_dict=state["optim"])
    print("Adam step count restored:", optimizer.state[model[0].weight]["step"].item())

# %%
if __name__ == "__main__":
    # zh: 从检查点接着训练一步：单进程的结果和两个进程 FSDP 训练的结果一致
    # en: Resume for one step: the single process ends where the two-process FSDP run did.
    train_step(model, optimizer, 1)
    for name, value in model.state_dict().items():
        fsdp = torch.tensor(logs[0]["after step 1"][name])
        print(f"{name:8} max abs difference from FSDP: {(value - fsdp).abs().max().item():.1e}")
        torch.testing.assert_close(value, fsdp)
