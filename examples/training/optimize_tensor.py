# %%
import torch

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

# zh: 完全没有模型：对一个普通张量最小化 f(w) = (w - 3)^2
# en: No model at all: minimise f(w) = (w - 3)^2 over a plain tensor.
w = torch.zeros(1, device=device, requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)
for _ in range(50):
    loss = ((w - 3) ** 2).sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("w after 50 steps:", w.item())


# %%
# zh: 对 g(v) = -(v - 3)^2 做梯度上升，最大值在 v = 3
# en: Gradient ascent on g(v) = -(v - 3)^2, which peaks at v = 3.
def g(v):
    return -((v - 3) ** 2).sum()


# zh: 1) 手写更新：下降用 -，上升用 +
# en: 1) Manual update: descent uses -, ascent uses +.
v = torch.zeros(1, requires_grad=True)
for _ in range(50):
    v.grad = None
    g(v).backward()
    with torch.no_grad():
        v += 0.1 * v.grad  # zh: 上升用 '+'（'-' 是下降） | en: '+' for ascent ('-' would be descent)
print("manual ascent:", v.item())

# zh: 2) 让优化器翻转符号
# en: 2) Let the optimizer flip the sign.
u = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([u], lr=0.1, maximize=True)
for _ in range(50):
    opt.zero_grad()
    g(u).backward()
    opt.step()
print("maximize=True:", u.item())

# zh: 3) 或者最小化取负的目标函数
# en: 3) Or minimise the negated objective.
t = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([t], lr=0.1)
for _ in range(50):
    opt.zero_grad()
    (-g(t)).backward()
    opt.step()
print("minimise -g:  ", t.item())
print("same result:", torch.allclose(v, u) and torch.allclose(u, t))

# %% raises="ValueError"
# zh: 张量必须是叶子节点：运算的结果不能交给优化器
# en: The tensor must be a leaf: the result of an operation cannot be optimised.
base = torch.zeros(1, requires_grad=True)
torch.optim.SGD([base * 2], lr=0.1)
