# %%
import torch

i = torch.tensor([1, 2, 3])  # zh: int64 | en: int64
f = torch.tensor([1.0, 2.0])  # zh: float32 | en: float32

# zh: 整数张量加 Python 浮点数：得到默认浮点类型 float32
# en: An int tensor plus a Python float gives the default float type, float32.
print("int64 tensor + 0.5      :", (i + 0.5).dtype)
print("int64 tensor / 2        :", (i / 2).dtype)  # zh: 真除法总是浮点 | en: true division is always floating
print("int64 tensor // 2       :", (i // 2).dtype)

# zh: 两个张量：取能容纳两者的类型，但类别（整数 < 浮点）优先于位数
# en: Two tensors: a type that holds both, where the category (int < float) beats the width.
print("int64 + float32         :", torch.result_type(i, f))
print("int32 + int64           :", torch.promote_types(torch.int32, torch.int64))
print("uint8 + int8            :", torch.promote_types(torch.uint8, torch.int8))
print("bool + bool             :", torch.promote_types(torch.bool, torch.bool))
print("bool + int64            :", torch.promote_types(torch.bool, torch.int64))
print("float16 + float32       :", torch.promote_types(torch.float16, torch.float32))

# %%
# zh: 0 维张量和 Python 数一样，只在类别更高时才提升
# en: A 0-d tensor, like a Python number, promotes only when its category is higher.
i32 = torch.tensor([1, 2], dtype=torch.int32)
print("int32 + int64 0-d       :", (i32 + torch.tensor(5)).dtype)
print("int32 + float64 0-d     :", (i32 + torch.tensor(0.5, dtype=torch.float64)).dtype)
h = torch.tensor([1.0], dtype=torch.float16)
print("float16 + float64 0-d   :", (h + torch.tensor(0.5, dtype=torch.float64)).dtype)

# %%
# zh: uint8 不会因为 Python 整数而变宽：超出范围时回绕
# en: uint8 is not widened by a Python int: values wrap around.
u = torch.tensor([250, 251], dtype=torch.uint8)
print("uint8 + 10              :", u + 10, (u + 10).dtype)
print("bool tensor + 1         :", torch.tensor([True, False]) + 1)

# %% raises="RuntimeError"
# zh: 就地操作不能改变张量的类型，结果类型放不回去就报错
# en: An in-place op cannot change the tensor's dtype; if the result type does not fit, it raises.
i += 0.5
