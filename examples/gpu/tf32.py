# /// example
# requires = ["cuda"]
# ///
# %% volatile=true
import torch

torch.manual_seed(0)
n = 8192
a = torch.randn(n, n, device="cuda")
b = torch.randn(n, n, device="cuda")
reference = (a.double() @ b.double())  # zh: float64 的结果当作“真值” | en: the float64 product serves as the truth


def timed(fn, repeats=5):
    fn()
    best = float("inf")
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        out = fn()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3)
    return out, best


# zh: float32 矩阵乘法的三档精度："highest" 是真正的 float32，"high" 允许 TF32，"medium" 允许 bfloat16（但文档说明在 CUDA 上它也是 TF32）
# en: Three precisions for float32 matmuls: "highest" is true float32, "high" allows TF32, "medium" allows bfloat16
# en: (though on CUDA, its documentation says, it means TF32 too).
print("default:", torch.get_float32_matmul_precision())
for precision in ("highest", "high", "medium"):
    torch.set_float32_matmul_precision(precision)
    out, t = timed(lambda: a @ b)
    err = ((out.double() - reference).norm() / reference.norm()).item()
    print(f"{precision:8}  {t * 1e3:7.2f} ms  {2 * n**3 / t / 1e12:6.1f} TFLOP/s  relative error {err:.1e}  "
          f"out.dtype {out.dtype}")
torch.set_float32_matmul_precision("highest")

# %%
# zh: 卷积由 cuDNN 计算，它有自己的开关，默认允许 TF32（新接口：torch.backends.cudnn.conv.fp32_precision）
# en: Convolutions run in cuDNN, which has its own switch, and it allows TF32 by default (new API: torch.backends.cudnn.conv.fp32_precision).
print("torch.backends.cudnn.allow_tf32:", torch.backends.cudnn.allow_tf32)
conv = torch.nn.Conv2d(64, 64, 3, padding=1).cuda()
img = torch.randn(8, 64, 64, 64, device="cuda")
with torch.no_grad():
    ref = torch.nn.functional.conv2d(img.double(), conv.weight.double(), conv.bias.double(), padding=1)
    for allow in (True, False):
        torch.backends.cudnn.allow_tf32 = allow
        out = conv(img)
        err = ((out.double() - ref).norm() / ref.norm()).item()
        print(f"cudnn.allow_tf32 = {allow!s:5}  relative error {err:.1e}")
torch.backends.cudnn.allow_tf32 = True
