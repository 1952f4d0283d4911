# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 全是整数，torch.tensor 推断出 int64
# en: all integers, so torch.tensor infers int64
scores = torch.tensor([3, 4, 4, 5], device=device)
print(scores.dtype, " sum:", scores.sum().item())

# %% raises="RuntimeError"
# zh: 平均值不是整数，mean() 不替你选浮点类型
# en: a mean is not an integer, and mean() will not pick a floating type for you
scores.mean()

# %%
print("float():", scores.float().mean().item())
print("dtype=: ", scores.mean(dtype=torch.float32).item())  # zh: 或者在 mean 里指定 dtype | en: or give mean a dtype
print("from a float literal:", torch.tensor([3.0, 4, 4, 5], device=device).mean().item())

# %% raises="RuntimeError"
# zh: 比较的结果是布尔张量，算准确率时也会遇到同样的错误
# en: a comparison gives a bool tensor; computing an accuracy hits the same error
pred = torch.tensor([1, 0, 2, 2], device=device)
y = torch.tensor([1, 0, 1, 2], device=device)
(pred == y).mean()

# %%
print("accuracy:", (pred == y).float().mean().item())
