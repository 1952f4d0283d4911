# %%
import torch

torch.manual_seed(0)
lr, wd = 0.1, 0.01
x = torch.randn(16, 4)
y = torch.randn(16, 1)
w0 = torch.randn(4, 1)


def grad_at(w):
    w = w.clone().requires_grad_(True)
    ((x @ w - y) ** 2).mean().backward()
    return w.grad


# zh: SGD(weight_decay=wd) 给梯度加上 wd * p：等于给损失加上 wd/2 * ||p||^2
# en: SGD(weight_decay=wd) adds wd * p to the gradient: the same as adding wd/2 * ||p||^2 to the loss
w = w0.clone().requires_grad_(True)
opt = torch.optim.SGD([w], lr=lr, weight_decay=wd)
((x @ w - y) ** 2).mean().backward()
opt.step()

w_l2 = w0.clone().requires_grad_(True)
opt_l2 = torch.optim.SGD([w_l2], lr=lr)
(((x @ w_l2 - y) ** 2).mean() + wd / 2 * (w_l2**2).sum()).backward()
opt_l2.step()

torch.testing.assert_close(w.detach(), w0 - lr * (grad_at(w0) + wd * w0))
torch.testing.assert_close(w.detach(), w_l2.detach())
print("SGD weight_decay == L2 penalty in the loss == p - lr * (g + wd * p)")

# %%
# zh: Adam(weight_decay=wd)：仍是 L2，g <- g + wd * p，之后自适应步长会把它重新缩放
# zh: AdamW(weight_decay=wd)：解耦，先 p <- p * (1 - lr * wd)，再走普通的 Adam 一步
# en: Adam(weight_decay=wd): L2 again, g <- g + wd * p, and then the adaptive step rescales it
# en: AdamW(weight_decay=wd): decoupled, p <- p * (1 - lr * wd), then the plain Adam step
lr, wd, eps = 0.01, 0.1, 1e-8
for name, Opt in [("Adam", torch.optim.Adam), ("AdamW", torch.optim.AdamW)]:
    w = w0.clone().requires_grad_(True)
    opt = Opt([w], lr=lr, weight_decay=wd)
    ((x @ w - y) ** 2).mean().backward()
    opt.step()

    g = grad_at(w0)
    if name == "Adam":
        g = g + wd * w0
        start = w0
    else:
        start = w0 * (1 - lr * wd)
    # zh: Adam 的第一步，偏差修正后：m_hat = g，v_hat = g^2
    # en: first Adam step, bias-corrected: m_hat = g, v_hat = g^2
    by_hand = start - lr * g / (g.abs() + eps)
    torch.testing.assert_close(w.detach(), by_hand)
    print(f"{name:5s}: one step matches the rule; max |diff| = {(w.detach() - by_hand).abs().max().item():.1e}")

# %%
# zh: 默认值不同：AdamW 默认就做衰减，Adam 默认不做
# en: the defaults differ: AdamW decays unless told not to, Adam does not
print("AdamW default weight_decay:", torch.optim.AdamW([torch.zeros(1, requires_grad=True)]).defaults["weight_decay"])
print("Adam  default weight_decay:", torch.optim.Adam([torch.zeros(1, requires_grad=True)]).defaults["weight_decay"])
