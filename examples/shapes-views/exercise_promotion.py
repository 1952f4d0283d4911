# %%
import torch

i64 = torch.tensor([1, 2])
i32 = torch.tensor([1, 2], dtype=torch.int32)
u8 = torch.tensor([1, 2], dtype=torch.uint8)
f16 = torch.tensor([1.0, 2.0], dtype=torch.float16)
f32 = torch.tensor([1.0, 2.0])
b = torch.tensor([True, False])

# zh: 先写下预测，再和真实结果对比
# en: Write the predictions down, then compare with what actually happens.
cases = [
    ("i64 + 1.5", lambda: i64 + 1.5, torch.float32),
    ("i32 + i64", lambda: i32 + i64, torch.int64),
    ("u8 + i32", lambda: u8 + i32, torch.int32),
    ("u8 + 1000", lambda: u8 + 1000, torch.uint8),
    ("b * 3", lambda: b * 3, torch.int64),
    ("b & b", lambda: b & b, torch.bool),
    ("f16 + f32", lambda: f16 + f32, torch.float32),
    ("f16 + 2.0", lambda: f16 + 2.0, torch.float16),
    ("i32 / i32", lambda: i32 / i32, torch.float32),
    ("i64 + torch.tensor(2.5, dtype=torch.float64)", lambda: i64 + torch.tensor(2.5, dtype=torch.float64), torch.float64),
]
for name, op, predicted in cases:
    got = op().dtype
    assert got == predicted, (name, got, predicted)
    print(f"{name:46} {got}")
print("every prediction holds")

# %%
# zh: torch.result_type 不用真的计算就能给出同样的答案
# en: torch.result_type gives the same answers without computing anything.
assert torch.result_type(i32, i64) == torch.int64
assert torch.result_type(f16, 2.0) == torch.float16
assert torch.result_type(i64, 1.5) == torch.float32
print("torch.result_type agrees")
