# %%
import torch

torch.manual_seed(0)
device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")
target = torch.tensor([1.0, -2.0, 3.0], device=device)


def loss_fn(p):
    return ((p - target) ** 2).sum()


# zh: 普通 SGD：p <- p - lr * g
# en: plain SGD: p <- p - lr * g
p = torch.zeros(3, device=device, requires_grad=True)
opt = torch.optim.SGD([p], lr=0.1)
loss_fn(p).backward()
g = p.grad.clone()
expected = p.detach() - 0.1 * g
opt.step()
print("gradient:", g)
print("after one step:", p.detach())
torch.testing.assert_close(p.detach(), expected)
print("matches p - lr * g")

# %%
# zh: 带动量的 SGD：b <- mu * b + g（第一步 b = g），p <- p - lr * b
# en: SGD with momentum: b <- mu * b + g (b = g on the first step), p <- p - lr * b
lr, mu = 0.1, 0.9
p = torch.zeros(3, device=device, requires_grad=True)
opt = torch.optim.SGD([p], lr=lr, momentum=mu)
p_hand = torch.zeros(3, device=device)
b = None
for step in range(1, 4):
    opt.zero_grad()
    loss_fn(p).backward()
    opt.step()
    g = 2 * (p_hand - target)  # zh: 手算损失的梯度 | en: gradient of the loss, by hand
    b = g if b is None else mu * b + g
    p_hand = p_hand - lr * b
    diff = (p.detach() - p_hand).abs().max().item()
    print(f"step {step}: p = {p.detach()}  max |p - by hand| = {diff:.1e}")
print("momentum buffer in the optimizer state:", opt.state[p]["momentum_buffer"])

# %%
# zh: 在病态的二次函数上，同样的步数，动量走得远得多
# en: on an ill-conditioned quadratic, momentum gets much further in the same number of steps
scales = torch.tensor([1.0, 0.01], device=device)  # zh: 第一个轴方向的曲率大 100 倍 | en: curvature 100x larger along the first axis
for momentum in [0.0, 0.9]:
    w = torch.tensor([1.0, 1.0], device=device, requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.9, momentum=momentum)
    for _ in range(100):
        opt.zero_grad()
        loss = (scales * w**2).sum()
        loss.backward()
        opt.step()
    print(f"momentum={momentum}: loss after 100 steps = {(scales * w.detach() ** 2).sum().item():.2e}")
