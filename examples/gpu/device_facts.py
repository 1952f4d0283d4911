# /// example
# requires = ["cuda"]
# ///
# %%
import torch

# zh: torch 自己报告的 GPU 信息：型号、计算能力、SM 个数、显存
# en: What torch itself reports about the GPU: model, compute capability, SM count, memory.
props = torch.cuda.get_device_properties(0)
print("GPU:", props.name)
print("compute capability:", f"{props.major}.{props.minor}")
print("streaming multiprocessors (SMs):", props.multi_processor_count)
print(f"memory: {props.total_memory / 2**30:.1f} GiB")
print(f"L2 cache: {getattr(props, 'L2_cache_size', 0) / 2**20:.0f} MiB")
free, total = torch.cuda.mem_get_info()  # zh: 驱动报告的空闲/总显存（字节） | en: free/total bytes, as the driver reports them
print(f"free right now: {free / 2**30:.1f} of {total / 2**30:.1f} GiB")

# %%
# zh: 这个 torch 是用哪个 CUDA 和 cuDNN 构建的，这块卡支持哪些数据类型
# en: Which CUDA and cuDNN this torch was built with, and which data types this card supports.
print("torch:", torch.__version__)
print("CUDA (torch built with):", torch.version.cuda)
print("cuDNN:", torch.backends.cudnn.version())
print("bfloat16 supported:", torch.cuda.is_bf16_supported())
print("devices visible:", torch.cuda.device_count(), " current:", torch.cuda.current_device())
x = torch.ones(2, device="cuda")
print("a tensor on it:", x.device, " is_cuda:", x.is_cuda)
