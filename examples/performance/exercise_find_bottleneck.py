# %%
import os

import torch
import torch.utils.benchmark as benchmark
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
os.environ["KINETO_LOG_LEVEL"] = "6"  # zh: 关掉 Kineto 的日志 | en: silence Kineto's log lines


class Net(nn.Module):
    def __init__(self, vectorised=False):
        super().__init__()
        self.vectorised = vectorised
        self.proj = nn.Linear(64, 64)
        self.head = nn.Linear(64, 1)

    def forward(self, x):
        with record_function("proj"):
            h = torch.relu(self.proj(x))
        with record_function("center_rows"):
            if self.vectorised:
                h = h - h.mean(dim=1, keepdim=True)
            else:
                # zh: 逐行处理的 Python 循环
                # en: A Python loop, row by row.
                h = torch.stack([row - row.mean() for row in h])
        with record_function("head"):
            return self.head(h)


slow = Net().to(device)
fast = Net(vectorised=True).to(device)
fast.load_state_dict(slow.state_dict())
x = torch.randn(512, 64, device=device)
torch.testing.assert_close(slow(x), fast(x))
print("same outputs")

# %% volatile=true warns="UserWarning"
# zh: 第一步：用分析器找出最慢的那一段
# en: Step 1: let the profiler find the slowest block.
with profile(activities=[ProfilerActivity.CPU]) as prof:
    for _ in range(5):
        slow(x)
labels = {e.key: e.cpu_time_total for e in prof.key_averages() if e.key in ("proj", "center_rows", "head")}
for name, us in sorted(labels.items(), key=lambda kv: -kv[1]):
    print(f"{name:>12}: {us / 1e3:7.2f} ms in 5 calls")

# %% volatile=true
# zh: 第二步：向量化之后，用 Timer 比较前后的速度
# en: Step 2: after vectorising, compare with Timer.
results = [
    benchmark.Timer(
        "model(x)", globals={"model": m, "x": x}, label="Net forward", sub_label=name, description="512 rows"
    ).blocked_autorange(min_run_time=0.3)
    for name, m in (("Python loop", slow), ("vectorised", fast))
]
benchmark.Compare(results).print()
print(f"speed-up: {results[0].median / results[1].median:.0f}x")
