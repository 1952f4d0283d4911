# %%
import torch

torch.manual_seed(0)
device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")
lr, beta1, beta2, eps = 0.01, 0.9, 0.999, 1e-8

p = torch.randn(5, device=device, requires_grad=True)
opt = torch.optim.Adam([p], lr=lr, betas=(beta1, beta2), eps=eps)
p_hand = p.detach().clone()
m = torch.zeros_like(p_hand)
v = torch.zeros_like(p_hand)

for t in range(1, 4):
    opt.zero_grad()
    loss = (p**4).sum()
    loss.backward()
    g = p.grad.clone()
    opt.step()

    m = beta1 * m + (1 - beta1) * g  # zh: 一阶矩：g 的滑动平均 | en: first moment: moving average of g
    v = beta2 * v + (1 - beta2) * g**2  # zh: 二阶矩：g^2 的滑动平均 | en: second moment: moving average of g^2
    m_hat = m / (1 - beta1**t)  # zh: 偏差修正 | en: bias correction
    v_hat = v / (1 - beta2**t)
    p_hand = p_hand - lr * m_hat / (v_hat.sqrt() + eps)

    torch.testing.assert_close(p.detach(), p_hand)
    print(f"step {t}: max |torch - by hand| = {(p.detach() - p_hand).abs().max().item():.1e}")

# %%
# zh: 优化器为每个参数保存 m、v 和步数
# en: the optimizer keeps m, v and the step count per parameter
state = opt.state[p]
print("state keys:", sorted(state))
print("step:", state["step"])
torch.testing.assert_close(state["exp_avg"], m)
torch.testing.assert_close(state["exp_avg_sq"], v)
print("exp_avg and exp_avg_sq match m and v")

# %%
# zh: 第一步时 m_hat / sqrt(v_hat) = g / |g|：不论梯度多大，
# zh: 每个坐标都移动大约 lr
# en: on the first step m_hat / sqrt(v_hat) = g / |g|: every coordinate moves by about lr,
# en: whatever the size of its gradient
q = torch.tensor([1e-3, 1.0, 1e3], device=device, requires_grad=True)
opt = torch.optim.Adam([q], lr=lr)
(q * torch.tensor([1e-3, 1.0, 1e3], device=device)).sum().backward()
before = q.detach().clone()
opt.step()
print("gradient:   ", q.grad)
print("first step: ", (q.detach() - before))
