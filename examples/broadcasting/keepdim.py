# %%
import torch

x = torch.tensor([[1.0, 1.0, 2.0],
                  [2.0, 4.0, 2.0],
                  [3.0, 3.0, 0.0]])

# zh: 让每一行之和为 1：keepdim 让 (3, 1) 的行和沿列拉伸回去
# en: Make each row sum to 1: keepdim's (3, 1) row sums stretch back along the columns.
row_sum = x.sum(dim=1, keepdim=True)
print("row_sum shape:", tuple(row_sum.shape))
good = x / row_sum
print(good)
print("row sums:", good.sum(dim=1))

# %%
# zh: 忘了 keepdim：(3,) 被当成 (1, 3)，于是按列相除；方阵不会报错
# en: Without keepdim, (3,) is treated as (1, 3) and divides the columns; a square matrix raises nothing.
bad = x / x.sum(dim=1)
print(bad)
print("row sums:", bad.sum(dim=1))

# %%
# zh: 不是方阵时：多数形状会报错，但只有一列的 (3, 1) 悄悄广播成 (3, 3)
# en: Not square: most shapes raise, but a single column (3, 1) silently broadcasts to (3, 3).
for shape in [(2, 3), (3, 1)]:
    m = torch.ones(shape)
    try:
        print(shape, "/ its row sums ->", tuple((m / m.sum(dim=1)).shape))
    except RuntimeError as e:
        print(shape, "/ its row sums -> RuntimeError:", e)

# %%
# zh: 按列归一化时不需要 keepdim：(3,) 本来就补在前面
# en: Per column, keepdim is not needed: (3,) is padded at the front anyway.
col_mean = x.mean(dim=0)
print("col_mean shape:", tuple(col_mean.shape))
centered = x - col_mean
print("column means after centring:", centered.mean(dim=0).abs().max().item() < 1e-6)
