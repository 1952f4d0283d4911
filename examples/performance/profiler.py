# %%
import os

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(128, 256, device=device)
y = torch.randint(0, 10, (128,), device=device)


def train_step():
    # zh: record_function 给一段代码起名字，它会作为一行出现在表里
    # en: record_function names a block of code; the name shows up as a row in the table.
    with record_function("forward"):
        loss = nn.functional.cross_entropy(model(x), y)
    with record_function("backward"):
        optimizer.zero_grad()
        loss.backward()
    with record_function("optimizer_step"):
        optimizer.step()


# zh: 关掉 Kineto（分析器的底层库）每次开始、结束时打到 stderr 的两行日志
# en: Silence the two lines Kineto (the profiler's backend) writes to stderr at each start and stop.
os.environ["KINETO_LOG_LEVEL"] = "6"
train_step()  # zh: 预热，别把第一次调用的初始化开销算进去 | en: warm-up, keep first-call setup out of the profile

# %% volatile=true warns="UserWarning"
activities = [ProfilerActivity.CPU]
if device == "cuda":
    activities.append(ProfilerActivity.CUDA)  # zh: 有 GPU 时也记录 GPU 内核 | en: on a GPU, record its kernels too
with profile(activities=activities, record_shapes=True) as prof:
    for _ in range(5):
        train_step()
# zh: 按自身 CPU 时间排序（不含它调用的子运算），只看前 10 行
# en: Sort by self CPU time (excluding the ops it calls), show only the first 10 rows.
print(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=10, max_name_column_width=32))

# %% volatile=true
# zh: 按总 CPU 时间看我们起名的三段；group_by_input_shape 把同一个算子按输入形状分开
# en: Total CPU time of our three named blocks; group_by_input_shape splits an op by input shapes.
for event in prof.key_averages():
    if event.key in ("forward", "backward", "optimizer_step"):
        print(f"{event.key:>15}: {event.count} calls, {event.cpu_time_total / 1e3:.2f} ms in total")
print(prof.key_averages(group_by_input_shape=True).table(sort_by="cpu_time_total", row_limit=5,
                                                         max_name_column_width=20, max_shapes_column_width=40))
