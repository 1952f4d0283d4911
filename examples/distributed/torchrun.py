# /// example
# timeout = 120
# ///
# %%
import json
import os
import pathlib
import socket
import subprocess
import sys
import textwrap

# zh: torchrun 启动的脚本不用自己启动进程，init_process_group 也不用传 rank 和 world_size：都在环境变量里。
# zh: 脚本在 DDP 之外用同样的权重算一次本地梯度作对照；只有 rank 0 打印，按 rank 的顺序
# en: A script started by torchrun spawns nothing, and init_process_group needs no rank or world size: they are in the environment.
# en: The script also computes the local gradient outside DDP with the same weights, for comparison; only rank 0 prints, in rank order.
script = textwrap.dedent("""
    import json
    import os

    import torch
    import torch.distributed as dist
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel as DDP

    VARYING = {"MASTER_PORT", "TORCHELASTIC_RUN_ID", "TORCHELASTIC_ERROR_FILE"}


    def main():
        env = dict(os.environ)
        dist.init_process_group("gloo")
        rank = dist.get_rank()
        torch.manual_seed(0)
        model = DDP(nn.Linear(3, 1))
        x = torch.full((2, 3), float(rank))
        plain = nn.Linear(3, 1)
        plain.load_state_dict(model.module.state_dict())
        plain(x).sum().backward()
        model(x).sum().backward()

        names = ["RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE"]
        line = " ".join(f"{name}={env[name]}" for name in names)
        line += f" | local grad {plain.weight.grad[0, 0]}, DDP grad {model.module.weight.grad[0, 0]}"
        lines = [None] * dist.get_world_size()
        dist.all_gather_object(lines, line)
        dist.destroy_process_group()
        if rank == 0:
            before = set(json.loads(env["LAUNCHER_ENV"]))
            print("set by torchrun:")
            for name in sorted(set(env) - before):
                print(f"  {name}={'<varies>' if name in VARYING else env[name]}")
            print("each process:")
            for line in lines:
                print(" ", line)


    if __name__ == "__main__":
        main()
""")
pathlib.Path("train_ddp.py").write_text(script)
print("train_ddp.py written")

# %%
def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# zh: 单机也显式给出主节点的地址和端口：多机时只需改 --nnodes、--node-rank 和地址
# en: Even on one machine, give the master's address and port explicitly: for several machines only --nnodes, --node-rank and the address change.
command = [
    sys.executable, "-m", "torch.distributed.run",  # zh: 和命令行里的 torchrun 是同一个程序 | en: the same program as the torchrun command
    "--nnodes=1", "--node-rank=0", "--nproc-per-node=2",
    "--master-addr=127.0.0.1", f"--master-port={free_port()}",
    "train_ddp.py",
]
# zh: 把启动前已有的环境变量名告诉脚本，它才能列出 torchrun 新加的那些
# en: Tell the script which variables existed before the launch, so it can list the ones torchrun added.
env = {**os.environ, "TORCH_CPP_LOG_LEVEL": "ERROR"}  # zh: 见本章第一个示例 | en: see the chapter's first example
env["LAUNCHER_ENV"] = json.dumps(sorted(env) + ["LAUNCHER_ENV"])
result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=90)
print("exit code:", result.returncode)
print(result.stdout)
print("stderr:", result.stderr.strip()[-2000:])
