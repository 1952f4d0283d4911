# %%
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

B, T, C = 2, 5, 8
x = 3 * torch.randn(B, T, C, device=device) + 1

# zh: LayerNorm：每个位置的 C 个数各自减均值、除以标准差，再乘 weight、加 bias
# en: LayerNorm: each position's C numbers minus their mean, over their std, times weight plus bias.
ln = nn.LayerNorm(C).to(device)
mean = x.mean(dim=-1, keepdim=True)
var = x.var(dim=-1, keepdim=True, unbiased=False)  # zh: 有偏方差（除以 C） | en: biased variance (divides by C)
by_hand = (x - mean) / torch.sqrt(var + ln.eps) * ln.weight + ln.bias
print("allclose:", torch.allclose(by_hand, ln(x), atol=1e-5), f" max abs difference: {(by_hand - ln(x)).abs().max().item():.1e}")
y = ln(x).detach()
print("per-position mean:", y[0].mean(dim=-1))
print("per-position std: ", y[0].std(dim=-1, unbiased=False))

# zh: 用无偏方差就对不上了
# en: The unbiased variance does not match.
wrong = (x - mean) / torch.sqrt(x.var(dim=-1, keepdim=True) + ln.eps) * ln.weight + ln.bias
print("unbiased variance matches:", torch.allclose(wrong, ln(x), atol=1e-5))

# %%
# zh: 和 BatchNorm 不同，LayerNorm 不看批量里的其他样本
# en: Unlike BatchNorm, LayerNorm never looks at the other samples of the batch.
print("sample 0 alone equals sample 0 in the batch:", torch.allclose(ln(x[:1]), ln(x)[:1]))


# %%
class CausalSelfAttention(nn.Module):
    def __init__(self, C, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(C, 3 * C)
        self.proj = nn.Linear(C, C)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    """Pre-norm Transformer decoder block."""

    def __init__(self, C, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(C)
        self.attn = CausalSelfAttention(C, n_head)
        self.ln2 = nn.LayerNorm(C)
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))  # zh: 残差：x 加上修正量 | en: residual: x plus a correction
        x = x + self.mlp(self.ln2(x))
        return x


C, n_head = 64, 4
block = Block(C, n_head).to(device)
x = torch.randn(B, T, C, device=device)
print("in:", tuple(x.shape), " out:", tuple(block(x).shape))  # zh: 形状不变，所以可以一层层叠 | en: shape kept, so blocks stack

# %%
# zh: 参数量：两个 LayerNorm 4C，注意力 4C² + 4C，MLP 8C² + 5C，合计 12C² + 13C
# en: Parameters: two LayerNorms 4C, attention 4C² + 4C, MLP 8C² + 5C, 12C² + 13C in all.
for name, module in block.named_children():
    print(f"{name:5s} {sum(p.numel() for p in module.parameters()):6d}")
total = sum(p.numel() for p in block.parameters())
print(f"total {total:6d}   12C² + 13C = {12 * C**2 + 13 * C}")


# %% warns="UserWarning"
# zh: 残差连接给梯度一条直通的路：比较叠了 depth 层之后，输入处的梯度和输出处的梯度
# en: Residual connections give the gradient a straight path: compare the gradient at the input with the one at the output of depth blocks.
class PlainBlock(Block):
    def forward(self, x):  # zh: 同样的层，去掉 "x +" | en: the same layers without "x +"
        x = self.attn(self.ln1(x))
        return self.mlp(self.ln2(x))


torch.manual_seed(0)
inp = torch.randn(B, T, C, device=device)
upstream = torch.randn(B, T, C, device=device)  # zh: 输出处固定的梯度 | en: a fixed gradient at the output
print("depth  block        grad norm  cosine(grad, upstream)")
for depth in [1, 8, 32]:
    for cls in [Block, PlainBlock]:
        torch.manual_seed(1)
        stack = nn.Sequential(*[cls(C, n_head) for _ in range(depth)]).to(device)
        x = inp.clone().requires_grad_()
        stack(x).backward(upstream)
        cos = F.cosine_similarity(x.grad.flatten(), upstream.flatten(), dim=0).item()
        print(f"{depth:5d}  {cls.__name__:10s}  {x.grad.norm().item():9.2f}  {cos:22.2f}")
