# %%
import torch

x = torch.ones(3, 4)
per_row = torch.tensor([1.0, 2.0, 3.0])  # zh: 每行一个数，形状 (3,) | en: one number per row, shape (3,)

# zh: 想按行相乘：先把 (3,) 变成 (3, 1)，它才会沿列拉伸
# en: To scale each row, make (3,) into (3, 1) so it stretches along the columns.
print((x * per_row[:, None]).tolist())
print((x * per_row.unsqueeze(1)).tolist())

# %% raises="RuntimeError"
# zh: 直接相乘：(3,) 和最后一维 4 对齐，3 != 4 且都不是 1
# en: Multiplied as is: (3,) lines up with the last dim 4; 3 != 4 and neither is 1.
x * per_row
