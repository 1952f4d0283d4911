# %%
import math

import torch

# zh: 浮点加法不满足结合律：括号换个位置，最后几位就变了
# en: Floating-point addition is not associative: move the brackets and the last digits change.
print("(0.1 + 0.2) + 0.3 =", (0.1 + 0.2) + 0.3)
print("0.1 + (0.2 + 0.3) =", 0.1 + (0.2 + 0.3))
big, one = torch.tensor(1e8), torch.tensor(1.0)  # zh: float32 | en: float32
print("float32: (1e8 + 1) - 1e8 =", ((big + one) - big).item(), "   (1e8 - 1e8) + 1 =", ((big - big) + one).item())

# %%
# zh: 同样的一百万个数，按不同的顺序求和
# en: The same million numbers, summed in different orders.
torch.manual_seed(0)
x = torch.randn(1_000_000)
perm = torch.randperm(len(x))
sums = {
    "x.sum()": x.sum().item(),
    "x.flip(0).sum()": x.flip(0).sum().item(),
    "x[perm].sum()": x[perm].sum().item(),
    "x.cumsum(0)[-1]": x.cumsum(0)[-1].item(),
    # zh: 分成 4 块各自求和再相加，正是并行求和的做法
    # en: Four chunks summed separately, then added: what a parallel sum does.
    "x.view(4, -1).sum(1).sum()": x.view(4, -1).sum(1).sum().item(),
}
threads = torch.get_num_threads()
for n in (1, 2, 4):
    torch.set_num_threads(n)  # zh: 线程数决定怎样分块 | en: the thread count decides how the work is split
    sums[f"x.sum(), {n} thread(s)"] = x.sum().item()
torch.set_num_threads(threads)
for name, s in sums.items():
    print(f"{name:26s} {s!r}")
print(f"{'exact (math.fsum)':26s} {math.fsum(x.double().tolist())!r}")
s = x.sum()
print("gap between neighbouring float32 values here:", (torch.nextafter(s, s + 1) - s).item())

# %%
# zh: 比较浮点结果：要求逐位相等用 torch.equal，允许舍入误差用 torch.allclose / assert_close
# en: Comparing float results: torch.equal for bit-for-bit, torch.allclose / assert_close to allow rounding.
a, b = x.sum(), x[perm].sum()
print("torch.equal:", torch.equal(a, b), "  torch.allclose:", torch.allclose(a, b))
torch.testing.assert_close(a, b)
print("assert_close passed")
