# %%
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
T, C, H = 60, 8, 32


def grad_per_step(model):
    # zh: 损失只看最后一步的输出；看梯度传回每个时间步的输入时还剩多大
    # en: The loss looks only at the last step's output; how much gradient reaches each step's input?
    torch.manual_seed(1)
    x = torch.randn(T, 1, C, device=device, requires_grad=True)
    out = model(x)[0]
    out[-1].sum().backward()
    return x.grad.norm(dim=(1, 2)).cpu()


def lstm_with_forget_bias(value):
    torch.manual_seed(0)
    lstm = nn.LSTM(C, H).to(device)
    with torch.no_grad():
        lstm.bias_ih_l0[H:2 * H] += value  # zh: 门的顺序是 i、f、g、o：第二块是遗忘门 | en: gates are i, f, g, o: the second block is the forget gate
    return lstm


models = {}
for name, cls in [("RNN", nn.RNN), ("GRU", nn.GRU), ("LSTM", nn.LSTM)]:
    torch.manual_seed(0)
    models[name] = cls(C, H).to(device)
models["LSTM, forget bias +3"] = lstm_with_forget_bias(3.0)
grads = {name: grad_per_step(m) for name, m in models.items()}
print(f"{'gradient norm at input':22s}", "  ".join(f"{'t=' + str(t):7s}" for t in (0, 20, 40, 59)).rstrip())
for name, g in grads.items():
    print(f"{name:22s}", "  ".join(f"{g[t]:.1e}" for t in (0, 20, 40, 59)))

# %% caption="Gradient norm reaching each time step's input, log scale" caption_zh="传到每个时间步输入上的梯度范数，对数刻度"
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 3.5))
for name, g in grads.items():
    ax.plot(range(T), g, label=name)
ax.set_yscale("log")
ax.set_xlabel("time step t of the input")
ax.set_ylabel("gradient norm")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# zh: 反过来，权重大时梯度会爆炸；clip_grad_norm_ 返回裁剪前的总范数
# en: The other way round, large weights make gradients explode; clip_grad_norm_ returns the total norm before clipping.
torch.manual_seed(0)
rnn = nn.RNN(C, H, nonlinearity="relu").to(device)
with torch.no_grad():
    rnn.weight_hh_l0.mul_(3)
x = torch.randn(T, 1, C, device=device)
rnn(x)[0][-1].sum().backward()
before = nn.utils.clip_grad_norm_(rnn.parameters(), max_norm=1.0)
after = torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in rnn.parameters()]))
print(f"total gradient norm before clipping: {before.item():.2e}")
print(f"after clip_grad_norm_(max_norm=1.0): {after.item():.4f}")
