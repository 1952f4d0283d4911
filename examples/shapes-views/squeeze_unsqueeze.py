# %%
import torch

x = torch.zeros(1, 3, 1, 4)
print("x                :", tuple(x.shape))
print("x.squeeze()      :", tuple(x.squeeze().shape))  # zh: 去掉所有大小为 1 的维度 | en: drops every dim of size 1
print("x.squeeze(0)     :", tuple(x.squeeze(0).shape))  # zh: 只去掉第 0 维 | en: drops dim 0 only
print("x.squeeze(1)     :", tuple(x.squeeze(1).shape))  # zh: 第 1 维大小是 3：不变 | en: dim 1 has size 3: unchanged
print("x.squeeze((0, 2)):", tuple(x.squeeze((0, 2)).shape))

# %%
v = torch.arange(3)
print("v                :", tuple(v.shape))
print("v.unsqueeze(0)   :", tuple(v.unsqueeze(0).shape))  # zh: 行向量 | en: a row
print("v.unsqueeze(1)   :", tuple(v.unsqueeze(1).shape))  # zh: 列向量 | en: a column
print("v.unsqueeze(-1)  :", tuple(v.unsqueeze(-1).shape))
print("v[None, :, None] :", tuple(v[None, :, None].shape))  # zh: None 在该处插入一维 | en: None inserts a dim there

# %%
# zh: 批量里只有一个样本时，squeeze() 会把批量维也去掉
# en: With a batch of one, squeeze() drops the batch dim too.
logits = torch.zeros(1, 1)  # zh: (批量 1, 输出 1) | en: (batch of 1, 1 output)
print("squeeze()  :", tuple(logits.squeeze().shape))
print("squeeze(1) :", tuple(logits.squeeze(1).shape))

# %%
# zh: flatten 把一段连续的维度压成一维
# en: flatten merges a run of dims into one.
images = torch.zeros(8, 3, 32, 32)
print("flatten()            :", tuple(images.flatten().shape))
print("flatten(start_dim=1) :", tuple(images.flatten(start_dim=1).shape))
print("flatten(1, 2)        :", tuple(images.flatten(1, 2).shape))
