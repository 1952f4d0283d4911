# %%
import torch

torch.manual_seed(0)
A = torch.randn(2, 3)
B = torch.randn(3, 4)

# zh: 二维情况下 @、matmul、mm 完全一样
# en: For 2-D tensors, @, matmul and mm are the same.
print("A @ B      :", tuple((A @ B).shape))
print("same result:", torch.equal(A @ B, torch.matmul(A, B)) and torch.equal(A @ B, torch.mm(A, B)))

# %%
# zh: matmul 对一维张量的处理
# en: How matmul treats 1-D tensors.
v3 = torch.randn(3)
print("(3,) @ (3,)   ->", tuple((v3 @ v3).shape), " (a dot product)")
print("(2, 3) @ (3,) ->", tuple((A @ v3).shape))
print("(3,) @ (3, 4) ->", tuple((v3 @ B).shape))

# %%
# zh: 三维及以上：最后两维做矩阵乘，前面的批量维按广播规则对齐
# en: 3-D and up: the last two dims are multiplied, the batch dims in front broadcast.
X = torch.randn(2, 1, 3, 4)
Y = torch.randn(5, 4, 2)
print("(2, 1, 3, 4) @ (5, 4, 2) ->", tuple((X @ Y).shape))
print("(8, 3, 4) @ (4, 2)       ->", tuple((torch.randn(8, 3, 4) @ torch.randn(4, 2)).shape))

# zh: bmm 只接受批量大小相同的三维张量，不广播
# en: bmm takes 3-D tensors with equal batch sizes only, and does not broadcast.
P, Q = torch.randn(8, 3, 4), torch.randn(8, 4, 2)
print("bmm (8, 3, 4) x (8, 4, 2) ->", tuple(torch.bmm(P, Q).shape))
torch.testing.assert_close(torch.bmm(P, Q), P @ Q)
print("bmm matches @")

# %% raises="RuntimeError"
# zh: mm 只接受二维矩阵
# en: mm takes 2-D matrices only.
torch.mm(P, Q)
