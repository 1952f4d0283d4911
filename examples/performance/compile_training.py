# /// example
# timeout = 120
# ///
# %%
import copy
import statistics
import time

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
X = torch.randn(512, 64, device=device)
Y = torch.randn(512, 1, device=device)
eager_model = nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 128), nn.GELU(), nn.Linear(128, 1)).to(device)
model_copy = copy.deepcopy(eager_model)  # zh: 同样的初始权重 | en: the same initial weights


def sync():
    if device != "cpu":
        torch.accelerator.synchronize()


def make_step(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

    def step():
        loss = nn.functional.mse_loss(model(X), Y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        return loss.detach()

    return step


# zh: 在 CPU 上，inductor 编译前向加反向要几十秒（gcc 编译生成的 C++），这里改用 aot_eager：
# zh: 照样捕获前向和反向的计算图，但不生成代码，直接用 PyTorch 现成的算子执行
# en: On the CPU, inductor needs tens of seconds for forward plus backward (gcc builds the generated C++),
# en: so use aot_eager here: it captures the forward and backward graphs the same way but generates no code.
backend = "aot_eager" if device == "cpu" else "inductor"
print("backend:", backend)

# %% volatile=true
# zh: torch.compile 本身几乎不花时间，但第一次用到它时要导入 TorchDynamo 等模块
# en: torch.compile itself is cheap, but its first use imports TorchDynamo and friends.
t0 = time.perf_counter()
compiled_model = torch.compile(model_copy, backend=backend)
print(f"torch.compile(), including imports: {time.perf_counter() - t0:.1f} s")
eager_step, compiled_step = make_step(eager_model), make_step(compiled_model)

# %% volatile=true warns="UserWarning"
# zh: 第一步：捕获前向和反向的计算图（inductor 还要生成并编译代码）
# en: The first step captures the forward and backward graphs (inductor also generates and compiles code).
sync()
t0 = time.perf_counter()
first_compiled = compiled_step()
sync()
print(f"first compiled step: {time.perf_counter() - t0:.1f} s")
first_eager = eager_step()


# %% volatile=true
# zh: 两种步交替计时，机器上别的负载对两边的影响差不多
# en: Time the two kinds of step alternately, so other load on the machine hits both alike.
times = {"eager": [], "compiled": []}
for _ in range(3):  # zh: 预热 | en: warm-up
    eager_step(), compiled_step()
for _ in range(30):
    for name, step in (("eager", eager_step), ("compiled", compiled_step)):
        sync()
        t0 = time.perf_counter()
        step()
        sync()
        times[name].append(time.perf_counter() - t0)
eager_ms, compiled_ms = (statistics.median(times[k]) * 1e3 for k in ("eager", "compiled"))
print(f"median step time: eager {eager_ms:.2f} ms, compiled {compiled_ms:.2f} ms")

# %%
# zh: 两个模型走过了同样多的步，损失和参数应当一致
# en: Both models took the same number of steps, so losses and parameters should match.
print("first losses:", first_eager.item(), first_compiled.item())
losses_eager = torch.stack([eager_step() for _ in range(5)])
losses_compiled = torch.stack([compiled_step() for _ in range(5)])
print("next 5 losses (eager):   ", [round(v, 6) for v in losses_eager.tolist()])
print("next 5 losses (compiled):", [round(v, 6) for v in losses_compiled.tolist()])
print("losses allclose:", torch.allclose(losses_eager, losses_compiled, rtol=1e-5, atol=1e-6))
same_params = all(
    torch.allclose(a, b, rtol=1e-4, atol=1e-6)
    for a, b in zip(eager_model.parameters(), model_copy.parameters(), strict=True)
)
print("parameters allclose:", same_params)
