# %%
import torch

dtypes = [
    torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
    torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
]
for dt in dtypes:
    t = torch.zeros(2, dtype=dt)
    name = f"{str(dt):15} {t.type():24}"  # zh: t.type()：旧式类名 | en: t.type(): legacy class name
    try:
        a = t.numpy()
        back = torch.from_numpy(a).dtype
        print(f"{name} -> numpy {str(a.dtype):9} -> back {back}")
    except TypeError:
        print(f"{name} -> FAILS")

# %%
bf = torch.tensor([1.5, 2.25], dtype=torch.bfloat16)
try:
    bf.numpy()
except TypeError as e:
    print("TypeError:", e)

# %%
a = bf.float().numpy()  # zh: 先转成 float32，这一步是精确的 | en: upcast first: bfloat16 -> float32 is exact
print("bf.float().numpy():", a, a.dtype)
