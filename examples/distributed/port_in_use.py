# /// example
# timeout = 60
# ///
# %%
import os
import socket

# zh: 与本章其他示例相同：沙箱解析不了自己的主机名，让 PyTorch 的 C++ 部分只报告错误
# zh: （要在导入 torch 之前设置）
# en: As in this chapter's other examples: the sandbox cannot resolve its own host name, so PyTorch's C++ side
# en: reports errors only (set before torch is imported).
os.environ["TORCH_CPP_LOG_LEVEL"] = "ERROR"
import torch.distributed as dist  # noqa: E402

os.environ["MASTER_ADDR"] = "127.0.0.1"
os.environ["MASTER_PORT"] = "29500"  # zh: torchrun 的默认端口 | en: torchrun's default port

# zh: 另一个程序（比如上一次没退出的训练）占着这个端口
# en: Another program (a previous run that never exited, say) holds the port.
squatter = socket.socket()
squatter.bind(("127.0.0.1", 29500))
squatter.listen()
print("port 29500 taken by another socket")

# %% raises="DistNetworkError"
# zh: rank 0 要在 MASTER_PORT 上开键值存储，端口已被占用
# en: Rank 0 must serve the key-value store on MASTER_PORT, which is taken.
dist.init_process_group(backend="gloo", rank=0, world_size=1)

# %%
# zh: 办法：换一个空闲端口（或者结束占着端口的进程）
# en: The fix: pick a free port (or end the process that holds it).
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))  # zh: 端口 0：让操作系统挑一个空闲端口 | en: port 0: let the OS pick a free one
    os.environ["MASTER_PORT"] = str(s.getsockname()[1])
dist.init_process_group(backend="gloo", rank=0, world_size=1)
print("initialized:", dist.is_initialized(), " world size:", dist.get_world_size())
dist.destroy_process_group()
squatter.close()
