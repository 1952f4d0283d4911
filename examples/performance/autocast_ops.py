# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: CPU 上用 bfloat16；GPU 上一般用 float16（也支持 bfloat16）
# en: bfloat16 on the CPU; on a GPU float16 is the classic choice (bfloat16 works too).
amp_dtype = torch.bfloat16 if device == "cpu" else torch.float16
print("device:", device, " autocast dtype:", amp_dtype)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3)).to(device)
x = torch.randn(4, 8, device=device)  # zh: 输入是 float32 | en: float32 input
target = torch.tensor([0, 2, 1, 0], device=device)

# %%
# zh: 在 autocast 区域里逐个看运算的输出 dtype
# en: Inside an autocast region, look at the output dtype of each op.
with torch.autocast(device, dtype=amp_dtype):
    h = model[0](x)
    logits = model(x)
    results = {
        "linear": h,
        "matmul (x @ x.T)": x @ x.T,
        "relu": torch.relu(h),
        "softmax": torch.softmax(logits, dim=1),
        "sum": logits.sum(),
        "layer_norm": nn.functional.layer_norm(h, (16,)),
        "prod": logits.prod(),
        "cross_entropy": nn.functional.cross_entropy(logits, target),
        "mse_loss": nn.functional.mse_loss(logits, torch.zeros_like(logits)),
        "x + 1 (float32 input)": x + 1,
    }
for name, out in results.items():
    print(f"{name:>22}: {out.dtype}")

# %%
# zh: 参数始终是 float32；反向传播得到的梯度也是 float32
# en: The parameters stay float32, and so do the gradients that backward produces.
loss = results["cross_entropy"]
loss.backward()
print("parameter dtype:", model[0].weight.dtype)
print("gradient dtype: ", model[0].weight.grad.dtype)
print("loss dtype:     ", loss.dtype)

# %%
# zh: 离开 autocast 区域后一切恢复原样；低精度的输出要自己转回 float32
# en: Outside the region everything is back to normal; convert low-precision outputs yourself.
print("outside autocast:", model(x).dtype)
print("logits from inside, converted:", logits.float().dtype)
