# %%
import warnings

import torch

# zh: 新接口：每个后端、每类运算各有一个 fp32_precision，取 "ieee"（真正的 float32）、"tf32" 或 "none"（沿用上一级）
# en: The new API: one fp32_precision per backend and kind of op: "ieee" (true float32), "tf32" or "none" (inherit from above).
print("torch.backends.fp32_precision            ", repr(torch.backends.fp32_precision))
print("torch.backends.cuda.matmul.fp32_precision", repr(torch.backends.cuda.matmul.fp32_precision))
print("torch.backends.cudnn.conv.fp32_precision ", repr(torch.backends.cudnn.conv.fp32_precision))
print("torch.get_float32_matmul_precision()     ", repr(torch.get_float32_matmul_precision()))

# %%
# zh: 旧接口：allow_tf32 两个开关和 set_float32_matmul_precision；把读写它们时发出的警告都记录下来
# en: The old API: the two allow_tf32 flags and set_float32_matmul_precision; record every warning they emit.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("torch.backends.cuda.matmul.allow_tf32:", torch.backends.cuda.matmul.allow_tf32)
    print("torch.backends.cudnn.allow_tf32:      ", torch.backends.cudnn.allow_tf32)
    torch.set_float32_matmul_precision("high")  # zh: 旧写法：允许 TF32 | en: the older spelling: allow TF32
    print("after set_float32_matmul_precision('high'): cuda.matmul.fp32_precision =",
          repr(torch.backends.cuda.matmul.fp32_precision))
    torch.set_float32_matmul_precision("highest")
    print("after set_float32_matmul_precision('highest'): cuda.matmul.fp32_precision =",
          repr(torch.backends.cuda.matmul.fp32_precision))
print("warnings emitted by the old API:", len(caught))
for w in caught:
    print(f"  {w.category.__name__}: {w.message}")

# %%
# zh: 两套接口不要混用：用新接口打开 TF32 之后，旧接口的读取会报错
# en: Do not mix the two: once the new API has turned TF32 on, reading the old one raises.
torch.backends.cuda.matmul.fp32_precision = "tf32"
torch.backends.cudnn.conv.fp32_precision = "ieee"  # zh: 卷积用真正的 float32 | en: convolutions in true float32
print("cuda.matmul:", torch.backends.cuda.matmul.fp32_precision, "| cudnn.conv:", torch.backends.cudnn.conv.fp32_precision)
for name, read_old in [("torch.get_float32_matmul_precision()", torch.get_float32_matmul_precision),
                       ("torch.backends.cuda.matmul.allow_tf32", lambda: torch.backends.cuda.matmul.allow_tf32)]:
    try:
        print(f"{name}: {read_old()!r}")
    except RuntimeError as e:
        print(f"{name}: RuntimeError: {e}")
torch.backends.cuda.matmul.fp32_precision = "none"  # zh: 恢复默认值 | en: back to the defaults
torch.backends.cudnn.conv.fp32_precision = "tf32"
