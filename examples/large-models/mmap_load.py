# %%
import os
import time

import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def rss_anon_mib():
    # zh: 进程私有的内存（Linux 的 /proc/self/status），见 meta_init.py
    # en: The process's private memory (Linux's /proc/self/status), see meta_init.py.
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) / 1024 for line in f if line.startswith("RssAnon:"))


def make_model():
    return nn.Sequential(*[nn.Linear(1024, 1024) for _ in range(16)])


torch.manual_seed(0)
original = make_model()  # zh: 一直留着：释放掉的内存会被后面重用，测量就不准了 | en: kept alive: freed memory would be reused below and spoil the measurements
torch.save(original.state_dict(), "model.pt")
print(f"model.pt: {os.path.getsize('model.pt') / 2**20:.1f} MiB")

# %% volatile=true
# zh: 普通加载把整个文件读进内存；mmap=True 只把文件映射进地址空间，用到哪一页才读哪一页
# en: A normal load reads the whole file into memory; mmap=True only maps the file into the address space, and a
# en: page is read when it is first touched.
measured = {}
for mmap in [False, True]:
    start_mib, t0 = rss_anon_mib(), time.perf_counter()
    state = torch.load("model.pt", mmap=mmap, weights_only=True)
    seconds = time.perf_counter() - t0
    measured[mmap] = state
    print(f"mmap={mmap!s:5}: load {seconds * 1e3:6.1f} ms, private memory +{rss_anon_mib() - start_mib:5.1f} MiB")

# %%
print("same values:", all(torch.equal(a, b) for a, b in zip(measured[False].values(), measured[True].values(), strict=True)))

# %% volatile=true
# zh: 装进模型。普通模型要先分配自己的参数，load_state_dict 再拷贝一遍；
# zh: meta 上建的模型加 assign=True，直接用映射来的张量，不分配、不拷贝
# en: Into a model. A normal model first allocates its own parameters, then load_state_dict copies into them;
# en: a model built on meta, with assign=True, uses the mapped tensors themselves: no allocation, no copy.
start_mib = rss_anon_mib()
copied = make_model()
copied.load_state_dict(measured[True])
print(f"normal model + load_state_dict: private memory +{rss_anon_mib() - start_mib:.1f} MiB")

start_mib = rss_anon_mib()
with torch.device("meta"):
    mapped = make_model()
mapped.load_state_dict(measured[True], assign=True)
print(f"meta model + assign=True:       private memory +{rss_anon_mib() - start_mib:.1f} MiB")

# %%
print("parameter shares the mapped memory:", mapped[0].weight.data_ptr() == measured[True]["0.weight"].data_ptr())
x = torch.randn(2, 1024)
print("same output as the original:", torch.equal(mapped(x), original(x)))
# zh: 有 GPU 时再整体搬过去：.to(device) 把映射来的页拷进显存
# en: With a GPU, move it afterwards: .to(device) copies from the mapped pages into GPU memory.
mapped = mapped.to(device)
print("moved to:", mapped[0].weight.device.type)
