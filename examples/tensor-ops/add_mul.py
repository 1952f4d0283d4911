# %%
import torch

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
y = torch.ones(2, 3)

print("x + y           :", (x + y).tolist())
print("torch.add(x, y) :", torch.add(x, y).tolist())

result = torch.empty(2, 3)
torch.add(x, y, out=result)
print("out=result      :", result.tolist())

# %%
y.add_(x)  # zh: 就地操作：y 本身被修改 | en: in place: y itself changes
print("y after y.add_(x):", y.tolist())
z = y.add(x)  # zh: 没有下划线：y 不变，返回新张量 | en: no underscore: y stays, new tensor returned
print("y after y.add(x) :", y.tolist())
print("z                :", z.tolist())

# %%
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
b = torch.tensor([[10.0, 20.0], [30.0, 40.0]])
print("a * b        :", (a * b).tolist())
print("a.mul(b)     :", a.mul(b).tolist())
print("a @ b        :", (a @ b).tolist())
print("a.matmul(b)  :", a.matmul(b).tolist())
print("torch.mm(a,b):", torch.mm(a, b).tolist())

# %%
torch.manual_seed(0)
m = torch.rand(5, 3)
v = torch.rand(3)
print("matmul (5,3)@(3,)   :", (m @ v).shape)
print("matmul batched      :", (torch.rand(8, 5, 3) @ torch.rand(3, 2)).shape)
print("m * v broadcasts to :", (m * v).shape)
