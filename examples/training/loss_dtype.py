# %%
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Linear(3, 1)  # zh: 参数是 float32 | en: float32 parameters
x = torch.randn(4, 3)
# zh: NumPy 的浮点数组默认是 float64，from_numpy 保留这个类型
# en: NumPy's float arrays default to float64, and from_numpy keeps it.
y = torch.from_numpy(np.array([[0.0], [1.0], [1.0], [0.0]]))
print("prediction:", model(x).dtype, " target:", y.dtype)

# %% raises="RuntimeError"
nn.BCELoss()(torch.sigmoid(model(x)), y)

# %% raises="RuntimeError"
loss = nn.HuberLoss()(model(x), y)
print("forward is fine:", loss)
loss.backward()  # zh: 直到反向传播才报错 | en: the error comes only in the backward pass

# %%
# zh: MSELoss 不报错，但损失悄悄变成了 float64
# en: MSELoss raises nothing, but the loss quietly becomes float64.
print(nn.MSELoss()(model(x), y).dtype)

# %%
# zh: 修正：目标转换成 float32，和模型的输出一致
# en: The fix: convert the target to float32, like the model's output.
y = y.float()
loss = nn.BCELoss()(torch.sigmoid(model(x)), y)
loss.backward()
print(loss, model.weight.grad.dtype)
