# /// example
# requires = ["cuda"]
# timeout = 180
# ///
# %%
import matplotlib.pyplot as plt
import torch

# zh: 这块卡的理论峰值（稠密矩阵，TFLOP/s）。来源：NVIDIA H100 数据手册（H100 SXM5 与 PCIe 两栏）
# zh: 和 H200 的产品页（计算单元与 H100 SXM 相同）；不在表里的卡不画峰值线。
# en: The card's theoretical peaks (dense matrices, TFLOP/s). Source: NVIDIA's H100 datasheet (the SXM5 and PCIe
# en: columns) and H200 product page (the same compute units as H100 SXM); a card not in the table gets no peak line.
PEAKS = {
    "H100 80GB HBM3": {"float32": 67, "tf32": 494.7, "bfloat16": 989.4, "float16": 989.4},
    "H100 PCIe": {"float32": 51, "tf32": 378, "bfloat16": 756, "float16": 756},
    "H200": {"float32": 67, "tf32": 494.7, "bfloat16": 989.4, "float16": 989.4},
}
name = torch.cuda.get_device_name(0)
peaks = next((p for key, p in PEAKS.items() if key in name), None)
print("GPU:", name, "| peaks (TFLOP/s):", peaks or "not in the table")


def tflops(n, dtype, tf32=False, repeats=10):
    """Best TFLOP/s of an n x n @ n x n product: 2 n^3 floating-point operations."""
    torch.set_float32_matmul_precision("high" if tf32 else "highest")
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    a @ b
    best = float("inf")
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        a @ b
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3)
    torch.set_float32_matmul_precision("highest")
    return 2 * n**3 / best / 1e12


# %% volatile=true caption="Matrix-product throughput against size, per data type" caption_zh="矩阵乘法吞吐量随矩阵大小的变化，按数据类型分列（实线为实测，虚线为峰值）"
torch.manual_seed(0)
sizes = [256, 512, 1024, 2048, 4096, 8192]
variants = {"float32": (torch.float32, False), "tf32": (torch.float32, True),
            "bfloat16": (torch.bfloat16, False), "float16": (torch.float16, False)}
curves = {v: [tflops(n, dtype, tf32) for n in sizes] for v, (dtype, tf32) in variants.items()}
for v, ys in curves.items():
    share = f"  = {ys[-1] / peaks[v]:.0%} of peak" if peaks else ""
    print(f"{v:9}", "  ".join(f"{n}: {y:6.1f}" for n, y in zip(sizes, ys, strict=True)), share)

fig, ax = plt.subplots(figsize=(7, 4))
for (v, ys), color in zip(curves.items(), ["C0", "C1", "C2", "C3"], strict=True):
    ax.plot(sizes, ys, "o-", color=color, label=v)
    if peaks:
        ax.axhline(peaks[v], color=color, linestyle="--", linewidth=0.8)
ax.set_xscale("log", base=2)
ax.set_yscale("log")
ax.set_xlabel("matrix size n (n x n @ n x n)")
ax.set_ylabel("TFLOP/s")
ax.set_title(f"{name}: measured (solid) and peak (dashed)")
ax.legend()
plt.show()
