# %%
import torch

# zh: 版本号末尾的“本地标签”说明了 wheel 的种类：+cpu、+cu126、+rocm6.3 ……
# en: The version's local tag names the kind of wheel: +cpu, +cu126, +rocm6.3, ...
version = torch.__version__
public, _, local = version.partition("+")
print("version:", public, " local tag:", local or "(none)")

# zh: TorchVersion 可以直接和字符串比较
# en: TorchVersion compares with plain strings.
print("torch >= 2.6 (has torch.accelerator):", version >= "2.6")

# %%
# zh: CPU 上的情况：用了哪套向量指令、几个线程
# en: On the CPU: which vector instructions, how many threads.
print("CPU capability:", torch.backends.cpu.get_cpu_capability())
print("intra-op threads:", torch.get_num_threads())
print("oneDNN (mkldnn) available:", torch.backends.mkldnn.is_available())

# %%
# zh: cuDNN 只在 CUDA 构建里有
# en: cuDNN exists in CUDA builds only.
print("cuDNN available:", torch.backends.cudnn.is_available())
print("cuDNN version  :", torch.backends.cudnn.version())
