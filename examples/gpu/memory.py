# /// example
# requires = ["cuda"]
# ///
# %%
import torch
from torch import nn


def mib(n_bytes):
    return f"{n_bytes / 2**20:8.1f} MiB"


def report(label):
    print(f"{label:34} allocated {mib(torch.cuda.memory_allocated())}   reserved {mib(torch.cuda.memory_reserved())}")


# zh: memory_allocated：张量实际占用的显存；memory_reserved：PyTorch 的缓存分配器向驱动要来的显存
# en: memory_allocated: what tensors occupy; memory_reserved: what PyTorch's caching allocator holds from the driver.
report("start")
x = torch.empty(256, 2**20, device="cuda")  # zh: 2**28 个 float32 = 1 GiB | en: 2**28 float32 values = 1 GiB
report("x (1 GiB)")
y = x * 2
report("y = x * 2")
del x, y
report("del x, y")
torch.cuda.empty_cache()  # zh: 把缓存的空闲块还给驱动 | en: return the cached free blocks to the driver
report("torch.cuda.empty_cache()")

# %%
# zh: 训练一步的显存：参数、前向保存的激活值、梯度、Adam 的两份状态
# en: Memory of one training step: parameters, activations saved by the forward pass, gradients, Adam's two states.
torch.manual_seed(0)
model = nn.Sequential(*[nn.Sequential(nn.Linear(4096, 4096), nn.GELU()) for _ in range(8)]).cuda()
optimizer = torch.optim.Adam(model.parameters())
n_params = sum(p.numel() for p in model.parameters())
print(f"parameters: {n_params / 1e6:.1f} M = {mib(4 * n_params).strip()} in float32")
batch = torch.randn(2048, 4096, device="cuda")

for step in range(2):
    torch.cuda.reset_peak_memory_stats()  # zh: 峰值从这里重新统计 | en: peak statistics start again here
    base = torch.cuda.memory_allocated()
    loss = model(batch).square().mean()
    after_forward = torch.cuda.memory_allocated()
    loss.backward()
    after_backward = torch.cuda.memory_allocated()
    optimizer.step()
    optimizer.zero_grad()  # zh: 默认 set_to_none=True：释放梯度 | en: set_to_none=True by default: frees the gradients
    del loss
    print(f"step {step}: before {mib(base)}, after forward {mib(after_forward)}, "
          f"after backward {mib(after_backward)}, peak {mib(torch.cuda.max_memory_allocated())}, "
          f"end {mib(torch.cuda.memory_allocated())}")

# %%
# zh: 不需要反向传播时，no_grad 下的前向不保存激活值
# en: Without backward, a forward pass under no_grad keeps no activations.
for grad in (True, False):
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    with torch.set_grad_enabled(grad):
        out = model(batch)
    extra = torch.cuda.max_memory_allocated() - base
    print(f"forward with grad={grad!s:5}: peak {mib(extra)} above the model")
    del out

# %% raises="OutOfMemoryError"
# zh: 要的比整块卡还多：torch.OutOfMemoryError（RuntimeError 的子类）
# en: Asking for more than the whole card: torch.OutOfMemoryError (a subclass of RuntimeError).
free, total = torch.cuda.mem_get_info()
too_big = torch.empty(2 * total // 4, device="cuda")  # zh: 两倍显存的 float32 | en: twice the memory, in float32

# %%
# zh: 出错之后进程照常运行，已有的张量都还在
# en: The process carries on after the error, with every tensor still there.
print("is OutOfMemoryError a RuntimeError:", issubclass(torch.OutOfMemoryError, RuntimeError))
report("after the failed allocation")
