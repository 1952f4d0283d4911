# %%
import torch

# zh: 1000 次 SGD 更新，每次把 w 减小 1e-3：分别用 float32 和 bfloat16 存 w
# en: 1000 SGD updates, each lowering w by 1e-3, with w stored in float32 and in bfloat16.
for dtype in (torch.float32, torch.bfloat16):
    w = torch.tensor(1.0, dtype=dtype)
    for _ in range(1000):
        w -= 1e-3
    print(f"{str(dtype):>14}: w = {w.item():.6f}")

# %%
# zh: 原因：紧挨着 1 的下一个 bfloat16 是 1 - 2**-8，更新量还不到这个间隔的一半，1 - 1e-3 舍入回 1
# en: Why: the bfloat16 just below 1 is 1 - 2**-8; the update is under half that gap, so 1 - 1e-3 rounds to 1.
one = torch.tensor(1.0, dtype=torch.bfloat16)
print("spacing just below 1:", (one - torch.nextafter(one, torch.tensor(0.0, dtype=torch.bfloat16))).item())
print("1 - 1e-3 in bfloat16:", (one - 1e-3).item())

# %%
# zh: 同样的道理，用 bfloat16 一个一个地数数，数到 256 就停了；torch.sum 内部用 float32 累加，不受影响
# en: Likewise, counting one by one in bfloat16 stalls at 256; torch.sum accumulates in float32 internally.
count = torch.tensor(0.0, dtype=torch.bfloat16)
for _ in range(1000):
    count += 1
ones = torch.ones(1000, dtype=torch.bfloat16)
print("counting in bfloat16:", count.item())
print("next bfloat16 after 256:", torch.nextafter(count, torch.tensor(1000.0, dtype=torch.bfloat16)).item())
print("torch.sum of 1000 bfloat16 ones:", ones.sum().item(), ones.sum().dtype)
