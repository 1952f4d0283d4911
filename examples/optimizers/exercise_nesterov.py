# %%
import torch

torch.manual_seed(0)
lr, mu, wd = 0.05, 0.9, 0.01
p = torch.randn(4, requires_grad=True)
opt = torch.optim.SGD([p], lr=lr, momentum=mu, nesterov=True, weight_decay=wd)
p_hand = p.detach().clone()
b = None
for step in range(1, 6):
    opt.zero_grad()
    (p**2).sum().backward()
    opt.step()

    g = 2 * p_hand + wd * p_hand  # zh: 损失的梯度，再加上权重衰减 | en: gradient of the loss, then weight decay
    b = g if b is None else mu * b + g  # zh: 动量缓冲 | en: momentum buffer
    p_hand = p_hand - lr * (g + mu * b)  # zh: Nesterov：沿动量缓冲的方向往前看一步 | en: Nesterov: look ahead along the buffer
    torch.testing.assert_close(p.detach(), p_hand)
    print(f"step {step}: max |torch - by hand| = {(p.detach() - p_hand).abs().max().item():.1e}")
