# %%
import torch

tensor = torch.ones(4, 4)
tensor[:, 1] = 0  # every row, column 1
print(tensor)

# %%
m = torch.arange(12).reshape(3, 4)
print("m:\n", m)
print("m[0]      :", m[0])
print("m[:, -1]  :", m[:, -1])
print("m[1:, :2] :\n", m[1:, :2])
print("m[m > 8]  :", m[m > 8])

# %%
a = torch.zeros(2, 3)
b = torch.ones(2, 3)
print("cat dim=0:", torch.cat([a, b], dim=0).shape)
print("cat dim=1:", torch.cat([a, b], dim=1).shape)
print(torch.cat([a, b, a], dim=1))

# %%
one = m[1, 2]
print("m[1, 2]       :", one, "shape:", one.shape)
print("m[1, 2].item():", one.item(), type(one.item()))
print("m[0].tolist() :", m[0].tolist(), type(m[0].tolist()))
