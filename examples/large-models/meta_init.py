# %%
import time

import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def rss_anon_mib():
    # zh: 进程私有的内存（Linux 的 /proc/self/status）；拿不到时返回 None
    # en: The process's private memory (Linux's /proc/self/status); None where it cannot be read.
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) / 1024 for line in f if line.startswith("RssAnon:"))
    except (OSError, StopIteration):
        return None


def make_big():
    return nn.Sequential(*[nn.Linear(4096, 4096) for _ in range(8)])


before = rss_anon_mib()
t0 = time.perf_counter()
# zh: 这个块里新建的张量都在 meta 设备上：只有形状和 dtype，没有数据
# en: Tensors made in this block live on the meta device: a shape and a dtype, no data.
with torch.device("meta"):
    big = make_big()
build_s = time.perf_counter() - t0
after = rss_anon_mib()
weight = big[0].weight
print("parameter:", type(weight).__name__, tuple(weight.shape), weight.dtype, weight.device)
n_params = sum(p.numel() for p in big.parameters())
print(f"{n_params:,} parameters, {sum(p.nbytes for p in big.parameters()) / 2**20:.0f} MiB once materialised")

# %% volatile=true
if before is None:
    print(f"built in {build_s * 1e3:.1f} ms")
else:
    print(f"built in {build_s * 1e3:.1f} ms; the process's private memory grew by {after - before:.1f} MiB")

# %%
# zh: 形状照样推算（不做任何计算），但读不出数值
# en: Shapes still propagate (no arithmetic is done), but there are no values to read.
out = big(torch.empty(2, 4096, device="meta"))
print("output:", tuple(out.shape), out.device)

# %% raises="NotImplementedError"
weight[0, :3].tolist()

# %%
# zh: 小模型演示两条路。第一条：to_empty 分配内存（内容未初始化），再由各层的 reset_parameters 初始化
# en: Two routes, on a small model. One: to_empty allocates memory (uninitialised contents), then each layer's
# en: reset_parameters initialises it.


def make_small():
    return nn.Sequential(nn.Linear(8, 16), nn.LayerNorm(16), nn.GELU(), nn.Linear(16, 4))


torch.manual_seed(0)
# zh: 普通建法，作对照；直接建在 device 上，两边用的是同一个设备的随机数生成器
# en: Built the usual way, for comparison; directly on device, so both sides draw from that device's generator.
with torch.device(device):
    reference = make_small()

with torch.device("meta"):
    model = make_small()
model.to_empty(device=device)
torch.manual_seed(0)  # zh: 同一个种子，按同样的顺序初始化 | en: the same seed, the same order of initialisation
for module in model.modules():
    if hasattr(module, "reset_parameters"):
        module.reset_parameters()
same = all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), reference.state_dict().values(), strict=True))
print("to_empty + reset_parameters == normal build:", same)

# %%
# zh: 第二条：load_state_dict(assign=True) 直接把状态字典里的张量装进模型，不再拷贝
# en: Two: load_state_dict(assign=True) puts the state dict's tensors into the model as they are, no copy.
state = reference.state_dict()
with torch.device("meta"):
    model = make_small()
print(model.load_state_dict(state, assign=True))
print("weight is the state dict's tensor (same memory):", model[0].weight.data_ptr() == state["0.weight"].data_ptr())
print("still a Parameter that needs grad:", type(model[0].weight).__name__, model[0].weight.requires_grad)
x = torch.randn(3, 8, device=device)
print("same output as the reference:", torch.equal(model(x), reference(x)))

# %% warns="UserWarning"
# zh: 忘了 assign=True：往 meta 参数里拷贝什么也不做，参数仍在 meta 上
# en: Forgetting assign=True: copying into a meta parameter does nothing, and the parameters stay on meta.
with torch.device("meta"):
    layer = nn.Linear(8, 16)
print(layer.load_state_dict(reference[0].state_dict()))
print("weight still on:", layer.weight.device)
