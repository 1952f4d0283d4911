# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
loss = torch.tensor(0.25, device=device)
# zh: 只有一个元素（任何形状）时，.item() 和 float() 都给出 Python 数
# en: With exactly one element (of any shape), .item() and float() give a Python number.
print(loss.item(), float(loss), torch.tensor([[7.0]]).item())
scores = torch.tensor([0.9, 0.2, 0.7], device=device)

# %% raises="ValueError"
float(scores)  # zh: 三个元素，该取哪一个？ | en: three elements: which one?

# %% raises="RuntimeError"
scores.item()

# %%
# zh: 要所有的值就用 .tolist()；要一个数就先归约
# en: All the values: .tolist(). One number: reduce first.
print(scores.tolist())
print(scores.mean().item())

# %% raises="RuntimeError"
# zh: if、and、or、not 都要把张量变成一个 True 或 False
# en: if, and, or and not all need the tensor to become a single True or False.
if scores > 0.5:
    print("passed")

# %%
passed = scores > 0.5
print(passed)
print("any:", passed.any().item(), " all:", passed.all().item())
# zh: 逐元素的“与”用 &（记得加括号），不用 and
# en: Element-wise "and" is &, with parentheses, not `and`.
print((scores > 0.5) & (scores < 0.8))
