# %%
import torch


def my_broadcast_shape(a, b):
    # zh: 按三条规则：前面补 1，从后往前逐维比较，1 可以拉伸
    # en: The three rules: pad with 1s in front, compare dims from the back, 1 stretches.
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for da, db in zip(a, b, strict=True):
        if da != db and 1 not in (da, db):
            raise RuntimeError(f"cannot broadcast {da} with {db}")
        out.append(db if da == 1 else da)
    return tuple(out)


cases = [((3, 1), (1, 4)), ((2, 1, 4), (3, 1)), ((5,), (2, 3, 5)), ((4, 0), (1,)), ((3, 4), (3,)), ((2, 3), (3, 2))]
for a, b in cases:
    try:
        expected = tuple(torch.broadcast_shapes(a, b))
    except RuntimeError:
        expected = "error"
    try:
        mine = my_broadcast_shape(a, b)
    except RuntimeError:
        mine = "error"
    assert mine == expected, (a, b, mine, expected)
    print(f"{a} with {b}: {mine}")
print("all cases agree with torch.broadcast_shapes")
