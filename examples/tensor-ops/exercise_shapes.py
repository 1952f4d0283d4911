# %%
import torch


def z(*shape):
    return torch.zeros(*shape)


# zh: 每一行：表达式、你预测的形状
# en: Each row: an expression and the shape you predicted.
cases = [
    ("(3, 1) + (4,)", lambda: z(3, 1) + z(4), (3, 4)),
    ("(2, 3) * (3,)", lambda: z(2, 3) * z(3), (2, 3)),
    ("(2, 1, 4) + (3, 1)", lambda: z(2, 1, 4) + z(3, 1), (2, 3, 4)),
    ("(5, 3) @ (3,)", lambda: z(5, 3) @ z(3), (5,)),
    ("(3,) @ (3,)", lambda: z(3) @ z(3), ()),
    ("(8, 5, 3) @ (3, 2)", lambda: z(8, 5, 3) @ z(3, 2), (8, 5, 2)),
    ("cat[(2, 3), (4, 3)], dim=0", lambda: torch.cat([z(2, 3), z(4, 3)], dim=0), (6, 3)),
    ("stack[(2, 3), (2, 3)], dim=0", lambda: torch.stack([z(2, 3), z(2, 3)], dim=0), (2, 2, 3)),
    ("stack[(2, 3), (2, 3)], dim=2", lambda: torch.stack([z(2, 3), z(2, 3)], dim=2), (2, 3, 2)),
]
for text, make, predicted in cases:
    shape = tuple(make().shape)
    print(f"{text:30} -> {str(shape):10} predicted {predicted}")
    assert shape == predicted

# %% raises="RuntimeError"
# zh: 末尾的维度 3 和 2 既不相等也不是 1，不能广播
# en: Trailing sizes 3 and 2 are neither equal nor 1: no broadcasting.
z(2, 3) + z(2)
