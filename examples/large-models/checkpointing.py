# %%
import statistics
import time

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 计时更稳：不和机器上的其他进程争抢线程 | en: steadier timings: no contention for threads with other processes


class Block(nn.Module):
    calls = 0  # zh: 所有块的前向调用次数 | en: forward calls of all blocks together

    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(), nn.Dropout(0.1), nn.Linear(4 * d, d))

    def forward(self, x):
        Block.calls += 1
        return x + self.net(x)


class Model(nn.Module):
    def __init__(self, d=128, n_blocks=8):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_blocks))
        self.use_checkpoint = False

    def forward(self, x):
        for block in self.blocks:
            if self.use_checkpoint:
                # zh: 只保存块的输入；块内部的激活值在反向传播时重新计算
                # en: Only the block's input is kept; the activations inside are recomputed during backward.
                x = checkpoint(block, x, use_reentrant=False)
            else:
                x = block(x)
        return x


model = Model().to(device)
x = torch.randn(16, 64, 128, device=device)  # zh: 16 条序列，每条 64 个位置，宽 128 | en: 16 sequences of 64 positions, width 128
params = {p.untyped_storage().data_ptr() for p in model.parameters()}


def step(use_checkpoint):
    # zh: 前向时自动求导为反向传播保存的每个张量都经过 pack 钩子：按存储去重、不算参数，统计字节数
    # en: Every tensor autograd saves for backward during the forward pass goes through the pack hook:
    # en: count its bytes, once per storage, parameters left out.
    model.use_checkpoint = use_checkpoint
    model.zero_grad()
    Block.calls = 0
    saved = {}

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in params:
            saved[ptr] = t.untyped_storage().nbytes()
        return t

    torch.manual_seed(1)  # zh: Dropout 两次抽到同样的掩码 | en: Dropout draws the same masks both times
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = model(x).pow(2).mean()
    forward_calls = Block.calls
    loss.backward()
    grads = [p.grad.clone() for p in model.parameters()]
    return sum(saved.values()), len(saved), forward_calls, Block.calls, grads


results = {}
for use_checkpoint in [False, True]:
    nbytes, count, fwd, total, grads = step(use_checkpoint)
    results[use_checkpoint] = (nbytes, grads)
    print(f"checkpoint={use_checkpoint!s:5}: saved for backward {nbytes / 2**20:6.2f} MiB in {count:2} tensors; "
          f"block forward calls: {fwd} in the forward pass, {total} by the end of backward")
print(f"saved-bytes ratio: {results[False][0] / results[True][0]:.1f}x")
param_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
print(f"for comparison, the parameters: {param_bytes / 2**20:.2f} MiB "
      f"({results[False][0] / param_bytes:.0f}x less than saved without checkpointing)")
print(f"one block input: {x.nbytes / 2**20:.2f} MiB")

# %%
# zh: 重新计算时，checkpoint 恢复了随机数状态：Dropout 掩码相同，梯度逐位相同
# en: When recomputing, checkpoint restores the RNG state: same Dropout masks, bit-identical gradients.
diff = max((a - b).abs().max().item() for a, b in zip(results[False][1], results[True][1], strict=True))
print("gradients equal:", all(torch.equal(a, b) for a, b in zip(results[False][1], results[True][1], strict=True)),
      f" max abs difference: {diff}")

# %% volatile=true
# zh: 代价是多算一遍前向：比较一步训练（前向加反向）的时间。CUDA 上再看真实的显存峰值
# en: The price is an extra forward pass: compare the time of a training step (forward plus backward).
# en: On CUDA, also look at the real peak of allocated memory.


def timed_step(use_checkpoint):
    model.use_checkpoint = use_checkpoint
    model.zero_grad(set_to_none=True)
    if device == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    model(x).pow(2).mean().backward()
    if device == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1e3


timed_step(False)  # zh: 预热 | en: warm-up
times = {False: [], True: []}
for _ in range(5):  # zh: 两种方式交替计时，机器负载的起伏对两边一样 | en: alternate the two, so changes in load hit both alike
    for use_checkpoint in times:
        times[use_checkpoint].append(timed_step(use_checkpoint))
step_ms = {c: statistics.median(t) for c, t in times.items()}
print(f"median step time: {step_ms[False]:.1f} ms without, {step_ms[True]:.1f} ms with checkpointing "
      f"({step_ms[True] / step_ms[False]:.2f}x)")
if device == "cuda":
    for use_checkpoint in [False, True]:
        model.use_checkpoint = use_checkpoint
        model.zero_grad(set_to_none=True)
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        model(x).pow(2).mean().backward()
        peak = torch.cuda.max_memory_allocated() - base
        print(f"measured with torch.cuda.max_memory_allocated: checkpoint={use_checkpoint}: "
              f"peak {peak / 2**20:.1f} MiB above the start of the step")
else:
    print(f"measured on {device}: saved-tensor bytes only (torch.cuda.max_memory_allocated needs CUDA)")
