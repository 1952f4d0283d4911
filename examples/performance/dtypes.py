# %%
import torch

# zh: 三种浮点类型的范围和精度
# en: Range and precision of the three floating-point types.
print(f"{'dtype':>15} {'bits':>4} {'max':>12} {'smallest normal':>16} {'eps':>10} {'resolution':>10}")
for dtype in (torch.float32, torch.bfloat16, torch.float16):
    fi = torch.finfo(dtype)
    print(f"{str(dtype):>15} {fi.bits:>4} {fi.max:>12.6g} {fi.tiny:>16.3g} {fi.eps:>10.3g} {fi.resolution:>10g}")

# %%
# zh: 范围：float16 最大只到 65504，70000 变成 inf；bfloat16 的范围和 float32 差不多
# en: Range: float16 stops at 65504, so 70000 becomes inf; bfloat16 covers about the range of float32.
big = torch.tensor([70000.0, 1e20])
print("float16: ", big.to(torch.float16))
print("bfloat16:", big.to(torch.bfloat16))
# zh: 中间结果也一样：两个不大的 float16 相乘就溢出了
# en: The same goes for intermediate results: the product of two moderate float16 values overflows.
a = torch.tensor(300.0, dtype=torch.float16)
print("300 * 300 in float16:", a * a)

# %%
# zh: 精度：bfloat16 只有 8 位有效位（7 位存储），1 + 2**-8 舍入回 1；float16 有 11 位，还能区分
# en: Precision: bfloat16 keeps 8 significant bits (7 stored), so 1 + 2**-8 rounds back to 1; float16 keeps 11.
x = torch.tensor(1 + 2**-8, dtype=torch.float64)
for dtype in (torch.float32, torch.bfloat16, torch.float16):
    print(f"1 + 2**-8 as {str(dtype):>14}: {x.to(dtype).item()!r}")
print("bfloat16 neighbours of 1:", torch.tensor([1.0, 1.0078125], dtype=torch.bfloat16).tolist())

# %%
# zh: 很小的数：float16 里 1e-8 下溢成 0，bfloat16 还能表示（只是不太准）
# en: Tiny numbers: 1e-8 underflows to 0 in float16, bfloat16 still represents it (roughly).
small = torch.tensor([1e-4, 1e-6, 1e-8])
print("float16: ", small.to(torch.float16).tolist())
print("bfloat16:", small.to(torch.bfloat16).tolist())
# zh: float16 最小的次正规数是 2**-24，约 6e-8；再小一半就舍入成 0
# en: The smallest float16 subnormal is 2**-24, about 6e-8; half of it rounds to 0.
print("2**-24, 2**-25 in float16:", torch.tensor([2.0**-24, 2.0**-25]).to(torch.float16).tolist())
