# /// example
# requires = ["cuda"]
# timeout = 180
# ///
# %%
import torch
from torch import nn

torch.manual_seed(0)
# zh: 一个以矩阵乘法为主的模型，大到能让 GPU 忙起来；数据是一个固定的随机回归任务
# en: A matmul-heavy model, big enough to keep the GPU busy; the data are a fixed random regression task.
d = 2048
X = torch.randn(8192, d, device="cuda")
teacher = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, 1)).cuda()
with torch.no_grad():
    Y = teacher(X)
X_test = torch.randn(2048, d, device="cuda")
with torch.no_grad():
    Y_test = teacher(X_test)


def make_model():
    torch.manual_seed(1)  # zh: 每种方式都从同样的初始权重开始 | en: every variant starts from the same weights
    return nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, 4 * d), nn.GELU(), nn.Linear(4 * d, 1)).cuda()


# %%
# zh: 在 GPU 上，autocast 的 float32 列表比 CPU 上长：softmax、sum 之类在 float16 区域里也按 float32 计算
# en: On the GPU, autocast's float32 list is longer than on the CPU: softmax, sum and the like run in float32 inside a float16 region.
model = make_model()
with torch.autocast("cuda", dtype=torch.float16):
    h = model[0](X[:4])
    print("linear:", h.dtype, " gelu:", model[1](h).dtype, " softmax:", h.softmax(-1).dtype, " sum:", h.sum().dtype)
print("parameters stay", model[0].weight.dtype)


# %% volatile=true
def train(variant, steps=60, batch=1024):
    """Train a fresh model; returns (ms per step, test loss in float32, scale at the end)."""
    model = make_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    torch.set_float32_matmul_precision("high" if variant == "tf32" else "highest")
    dtype = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(variant)
    scaler = torch.amp.GradScaler("cuda", enabled=variant == "fp16")  # zh: 只有 float16 需要 | en: only float16 needs it
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for step in range(steps):
        if step == 10:  # zh: 前 10 步是预热，不计时 | en: the first 10 steps are warm-up, not timed
            start.record()
        i = (step * batch) % len(X)
        with torch.autocast("cuda", dtype=dtype or torch.float32, enabled=dtype is not None):
            loss = nn.functional.mse_loss(model(X[i:i + batch]), Y[i:i + batch])
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    end.record()
    end.synchronize()
    torch.set_float32_matmul_precision("highest")
    with torch.no_grad():
        test = nn.functional.mse_loss(model(X_test), Y_test).item()
    return start.elapsed_time(end) / (steps - 10), test, scaler.get_scale() if scaler.is_enabled() else None


results = {v: train(v) for v in ("fp32", "tf32", "bf16", "fp16")}
base = results["fp32"][0]
for variant, (ms, test, scale) in results.items():
    extra = f"  GradScaler scale {scale:.0f}" if scale else ""
    print(f"{variant:5} {ms:7.2f} ms/step  x{base / ms:4.1f}  test loss {test:.5f}{extra}")
