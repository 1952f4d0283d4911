# %%
import torch

x = torch.tensor([-1.0, 4.0], requires_grad=True)
# zh: 只在 x > 0 处取 sqrt：前向的值没有问题……
# en: sqrt only where x > 0: the forward value is fine ...
y = torch.where(x > 0, torch.sqrt(x), 0.0).sum()
y.backward()
print("y =", y.item())
# zh: ……梯度却有问题
# en: ... but the gradient is not
print("x.grad =", x.grad)

# %% raises="RuntimeError" warns="UserWarning"
# zh: 异常检测模式检查每个反向函数的输出，指出产生 NaN 的那一个
# en: anomaly mode checks every backward function's output and names the one that made a NaN
x = torch.tensor([-1.0, 4.0], requires_grad=True)
with torch.autograd.set_detect_anomaly(True):
    y = torch.where(x > 0, torch.sqrt(x), 0.0).sum()
    y.backward()

# %%
# zh: 修正：只给 sqrt 安全的输入，再做选择
# en: the fix: give sqrt only safe inputs, then select
x = torch.tensor([-1.0, 4.0], requires_grad=True)
safe = torch.where(x > 0, x, 1.0)
y = torch.where(x > 0, torch.sqrt(safe), 0.0).sum()
y.backward()
print("y =", y.item(), " x.grad =", x.grad)
