# %%
import matplotlib.pyplot as plt
import torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[x < 0] = 0
        return grad_input


torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
dtype = torch.float32

# %%
N, D_in, H, D_out = 64, 1000, 100, 10  # zh: 批量、输入、隐藏层、输出的大小 | en: batch, input, hidden, output sizes

# zh: 先在 CPU 上生成再移过去：任何设备上的数都一样
# en: Draw on the CPU, then move: the same numbers on every device.
x = torch.randn(N, D_in, dtype=dtype).to(device)
y = torch.randn(N, D_out, dtype=dtype).to(device)
w1 = torch.randn(D_in, H, dtype=dtype).to(device).requires_grad_()
w2 = torch.randn(H, D_out, dtype=dtype).to(device).requires_grad_()

relu = MyReLU.apply
learning_rate = 1e-6
losses = []
for t in range(500):
    y_pred = relu(x @ w1) @ w2
    loss = (y_pred - y).pow(2).sum()
    losses.append(loss.item())
    if t % 100 == 99:
        print(f"step {t + 1:3d}  loss {loss.item():.3e}")

    loss.backward()
    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad
        w1.grad = None  # zh: 清空；w1.grad.zero_() 也可以 | en: reset; w1.grad.zero_() also works
        w2.grad = None

# %% caption_zh="用 MyReLU 的两层网络在普通梯度下降下的损失"
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(range(1, len(losses) + 1), losses)
ax.set_yscale("log")
ax.set_xlabel("step")
ax.set_ylabel("loss (sum of squared errors)")
ax.set_title("Two-layer net with MyReLU, plain gradient descent")
ax.grid(True, which="both", alpha=0.3)
plt.tight_layout()
plt.show()
