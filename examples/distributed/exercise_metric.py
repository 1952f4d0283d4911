# /// example
# timeout = 120
# ///
# %%
import os
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.utils.data import TensorDataset
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


# zh: 9 个验证样本：模型的预测和真实标签（预测固定写出来，重点在汇总）
# en: 9 validation samples: the model's predictions and the true labels (fixed, the point is the aggregation).
PREDS = torch.tensor([1, 0, 1, 1, 0, 0, 1, 1, 0])
LABELS = torch.tensor([0, 0, 1, 1, 0, 0, 0, 1, 0])


def evaluate(rank, world_size, port, queue):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world_size)
    log = {}
    shards = {
        "rank::world_size": list(range(rank, len(PREDS), world_size)),  # zh: 不补齐 | en: no padding
        "DistributedSampler": list(DistributedSampler(TensorDataset(PREDS), shuffle=False)),  # zh: 补齐 | en: pads
    }
    for name, idx in shards.items():
        correct = (PREDS[idx] == LABELS[idx]).sum().item()
        local_acc = correct / len(idx)
        # zh: 错误做法：把各 rank 的准确率平均
        # en: Wrong: average the per-rank accuracies.
        accs = torch.tensor([local_acc])
        dist.all_reduce(accs)
        # zh: 正确做法：先把正确数和样本数分别求和，再相除
        # en: Right: sum the correct counts and the sample counts separately, then divide.
        counts = torch.tensor([correct, len(idx)])
        dist.all_reduce(counts)
        log[name] = dict(indices=idx, local=local_acc, mean_of_acc=accs.item() / world_size, counts=counts.tolist())
    queue.put((rank, log))
    dist.destroy_process_group()


if __name__ == "__main__":
    logs = launch(evaluate)
    print(f"one process, all 9 samples: accuracy {(PREDS == LABELS).float().mean().item():.4f}")
    for name in logs[0]:
        print(name)
        for rank, log in enumerate(logs):
            print(f"  rank {rank}: indices {log[name]['indices']}, local accuracy {log[name]['local']:.4f}")
        correct, total = logs[0][name]["counts"]
        print(f"  mean of the local accuracies:   {logs[0][name]['mean_of_acc']:.4f}")
        print(f"  all_reduce of (correct, total): {correct}/{total} = {correct / total:.4f}")
