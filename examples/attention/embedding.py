# %%
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

vocab_size, C = 10, 4  # zh: 词表大小、每个向量的维数 | en: vocabulary size, vector width
emb = nn.Embedding(vocab_size, C).to(device)
print("weight:", tuple(emb.weight.shape))

# zh: 输入是整数下标，形状 (B, T)；输出多了最后一维 C
# en: The input holds integer ids, shape (B, T); the output gains a last dim C.
idx = torch.tensor([[1, 5, 5, 2], [0, 9, 3, 1]], device=device)
out = emb(idx)
print("idx:", tuple(idx.shape), idx.dtype, "->", tuple(out.shape), out.dtype)
# zh: 查表：输出就是 weight 的对应行
# en: A lookup: the output rows are rows of weight.
print("out[0, 1] is weight[5]:", torch.equal(out[0, 1], emb.weight[5]))
print("same as weight[idx]:", torch.equal(out, emb.weight[idx]))

# %% raises="RuntimeError"
emb(idx.float())  # zh: 下标必须是整数 | en: ids must be integers

# %%
# zh: 等价写法：one-hot 向量乘以权重矩阵，即一个没有偏置的 Linear
# en: The same thing: one-hot vectors times the weight matrix, i.e. a bias-free Linear.
one_hot = F.one_hot(idx, vocab_size).float()  # zh: 形状 (B, T, vocab_size) | en: shape (B, T, vocab_size)
linear = nn.Linear(vocab_size, C, bias=False).to(device)
with torch.no_grad():
    linear.weight.copy_(emb.weight.T)  # zh: Linear 存的是 (out, in) | en: Linear stores (out, in)
print("one_hot:", tuple(one_hot.shape))
print("Linear(one_hot) equals emb(idx):", torch.equal(linear(one_hot), out))

# %%
# zh: 梯度只落在用到的行上；没出现的 token，那一行的梯度是 0
# en: Gradients land only on the rows that were used; rows of absent tokens get zero.
emb(idx).sum().backward()
used = emb.weight.grad.abs().sum(dim=1) != 0
print("ids in the batch:  ", idx.unique().tolist())
print("rows with gradient:", used.nonzero().flatten().tolist())
print("grad of row 5 (used 2 times):", emb.weight.grad[5].tolist())

# %%
# zh: 注意力本身不看顺序，所以要再加上位置嵌入：位置 0..T-1 也查一张表
# en: Attention ignores order, so add a position embedding: positions 0..T-1 look up their own table.
block_size = 8  # zh: 最长的上下文 | en: the longest context
pos_emb = nn.Embedding(block_size, C).to(device)
B, T = idx.shape
pos = torch.arange(T, device=device)  # zh: 0, 1, ..., T-1 | en: 0, 1, ..., T-1
x = emb(idx) + pos_emb(pos)  # zh: (B, T, C) + (T, C) 广播 | en: (B, T, C) + (T, C) broadcasts
print("x:", tuple(x.shape))
# zh: 同一个 token 5 在位置 1 和 2 上的向量不再相同
# en: The same token 5 at positions 1 and 2 now has different vectors.
print("token 5, positions 1 and 2 equal before:", torch.equal(emb(idx)[0, 1], emb(idx)[0, 2]))
print("token 5, positions 1 and 2 equal after: ", torch.equal(x[0, 1], x[0, 2]))
