# /// example
# timeout = 120
# ///
# %%
import os
import socket

import torch.distributed as dist
import torch.multiprocessing as mp


def free_port():
    # zh: 绑定端口 0，让操作系统挑一个空闲端口
    # en: Bind port 0 and let the operating system pick a free port.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(worker, world_size=2):
    # zh: 启动 world_size 个进程，每个运行 worker(rank, world_size, port, queue)；
    # zh: 结果经队列交回父进程，按 rank 排好再返回，输出的顺序就是固定的
    # en: Start world_size processes, each running worker(rank, world_size, port, queue);
    # en: results come back to the parent through a queue, sorted by rank, so the printed order is fixed.
    # zh: 子进程会继承这个环境变量：PyTorch 的 C++ 部分只报告错误，不报告警告。
    # zh: 捕获本页输出的沙箱解析不了自己的主机名，c10d 和 gloo 会为此打印无害的警告
    # en: The children inherit this variable: PyTorch's C++ side reports errors only, no warnings.
    # en: The sandbox that captures this page cannot resolve its own host name, and c10d and gloo print harmless warnings about it.
    os.environ["TORCH_CPP_LOG_LEVEL"] = "ERROR"
    queue = mp.get_context("spawn").SimpleQueue()
    mp.spawn(worker, args=(world_size, free_port(), queue), nprocs=world_size, join=True)
    results = dict(queue.get() for _ in range(world_size))
    return [results[rank] for rank in range(world_size)]


if __name__ == "__main__":
    print("torch.distributed available:", dist.is_available())
    print("gloo backend available:     ", dist.is_gloo_available())


# %%
def hello(rank, world_size, port, queue):
    # zh: 所有进程约定同一个地址和端口：rank 0 在那里开一个键值存储，其他进程连上去互相认识
    # en: Every process agrees on one address and port: rank 0 serves a key-value store there, the others join through it.
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group(backend="gloo", rank=rank, world_size=world_size)
    info = {
        "get_rank()": dist.get_rank(),
        "get_world_size()": dist.get_world_size(),
        "get_backend()": dist.get_backend(),
        "__name__": __name__,  # zh: 子进程导入本脚本时的模块名 | en: the module name when a child imports this script
    }
    info["pid"] = os.getpid()
    queue.put((rank, info))
    dist.destroy_process_group()  # zh: 用完就销毁进程组 | en: tear the group down when done


if __name__ == "__main__":
    infos = launch(hello)
    pids = {os.getpid()} | {info.pop("pid") for info in infos}
    for rank, info in enumerate(infos):
        print(f"process {rank}:", info)
    print("distinct process ids (parent + 2 workers):", len(pids))
    # zh: 父进程只负责启动，它自己不在进程组里
    # en: The parent only starts the processes; it is not a member of the group.
    print("parent in the group:", dist.is_initialized())
