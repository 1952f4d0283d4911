# %%
import torch

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"

# no model at all: minimise f(w) = (w - 3)^2 over a plain tensor
w = torch.zeros(1, device=device, requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)
for _ in range(50):
    loss = ((w - 3) ** 2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("w after 50 steps:", w.item())


# %%
# gradient ascent on g(v) = -(v - 3)^2, which peaks at v = 3
def g(v):
    return -((v - 3) ** 2).sum()


# 1) manual update: descent uses -, ascent uses +
v = torch.zeros(1, requires_grad=True)
for _ in range(50):
    v.grad = None
    g(v).backward()
    with torch.no_grad():
        v += 0.1 * v.grad  # '+' for ascent ('-' would be descent)
print("manual ascent:", v.item())

# 2) let the optimizer flip the sign
u = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([u], lr=0.1, maximize=True)
for _ in range(50):
    opt.zero_grad()
    g(u).backward()
    opt.step()
print("maximize=True:", u.item())

# 3) or minimise the negated objective
t = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([t], lr=0.1)
for _ in range(50):
    opt.zero_grad()
    (-g(t)).backward()
    opt.step()
print("minimise -g:  ", t.item())
print("same result:", torch.allclose(v, u) and torch.allclose(u, t))

# %% raises="ValueError"
# the tensor must be a leaf: the result of an operation cannot be optimised
base = torch.zeros(1, requires_grad=True)
torch.optim.SGD([base * 2], lr=0.1)
