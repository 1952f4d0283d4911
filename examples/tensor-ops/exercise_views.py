# %%
import torch

x = torch.arange(12).view(3, 4).clone()

# zh: 预测：True 表示结果与 x 共享存储（视图），False 表示拷贝
# en: Prediction: True means the result shares x's storage (a view), False a copy.
cases = [
    ("x[0]", lambda: x[0], True),
    ("x[:, 1]", lambda: x[:, 1], True),
    ("x[::2]", lambda: x[::2], True),
    ("x[[0, 1]]", lambda: x[[0, 1]], False),
    ("x[x > 5]", lambda: x[x > 5], False),
    ("x.view(-1)", lambda: x.view(-1), True),
    ("x.reshape(2, 6)", lambda: x.reshape(2, 6), True),
    ("x.t()", lambda: x.t(), True),
    ("x.t().reshape(-1)", lambda: x.t().reshape(-1), False),
    ("x.t().contiguous()", lambda: x.t().contiguous(), False),
    ("x.clone()", lambda: x.clone(), False),
]
for text, make, predicted in cases:
    shares = make().untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"{text:20} shares storage: {shares!s:5}  predicted {predicted}")
    assert shares == predicted

# %%
# zh: 再用写入验证一次：改视图会改到 x，改拷贝不会
# en: Check once more by writing: a view changes x, a copy does not.
col = x[:, 1]
picked = x[[0, 1]]
col[0] = 100
picked[1, 0] = -100
print("x after col[0] = 100 and picked[1, 0] = -100:\n", x)
assert x[0, 1] == 100 and x[1, 0] == 4
