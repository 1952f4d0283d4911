# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
w = torch.ones(3, device=device, requires_grad=True)

# %% warns="UserWarning"
# zh: 用 torch.tensor 复制一个已有的张量：能用，但会警告
# en: copying an existing tensor with torch.tensor works, with a warning
copy = torch.tensor(w)
print(copy, copy.requires_grad)

# %%
# zh: 警告推荐的写法：先 detach 断开计算图，再 clone 复制数据
# en: what the warning recommends: detach from the graph, then clone the data
copy = w.detach().clone()
copy[0] = 5.0
print(copy, copy.requires_grad, " w unchanged:", w.tolist())
