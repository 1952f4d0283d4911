# %%
import torch

torch.manual_seed(0)
logits = torch.randn(4, 5) * 10


def my_softmax(x, dim):
    # zh: 先减去最大值防止 exp 溢出；keepdim 让结果能广播回 x 的形状
    # en: Subtract the max so exp cannot overflow; keepdim lets the results broadcast back to x.
    z = x - x.amax(dim=dim, keepdim=True)
    e = z.exp()
    return e / e.sum(dim=dim, keepdim=True)


for dim in (0, 1):
    torch.testing.assert_close(my_softmax(logits, dim), torch.softmax(logits, dim=dim))
    print(f"dim={dim}: matches torch.softmax; sums along dim:", my_softmax(logits, dim).sum(dim=dim))

# %%
# zh: 不减最大值时，大的 logits 会让 exp 溢出成 inf，结果变成 nan
# en: Without the max, large logits overflow exp to inf and the result becomes nan.
big = torch.tensor([[1000.0, 0.0]])
naive = big.exp() / big.exp().sum(dim=1, keepdim=True)
print("naive:", naive, " mine:", my_softmax(big, 1))
