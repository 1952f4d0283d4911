# %%
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class SelfAttention(nn.Module):
    def __init__(self, C, n_head, causal):
        super().__init__()
        self.n_head, self.causal = n_head, causal
        self.qkv = nn.Linear(C, 3 * C)
        self.proj = nn.Linear(C, C)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return self.proj(y.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, C, n_head, causal):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.attn = SelfAttention(C, n_head, causal)
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


def make_model(causal, V=20, C=32, T=10):
    torch.manual_seed(1)
    return nn.Sequential(
        nn.Embedding(V, C), *[Block(C, 4, causal) for _ in range(2)], nn.Linear(C, V)
    ).to(device)  # zh: 为了简短，省略了位置嵌入 | en: position embeddings left out for brevity


T, t = 10, 4
a = torch.randint(0, 20, (1, T), device=device)
b = a.clone()
b[0, t + 1 :] = torch.randint(0, 20, (T - t - 1,), device=device)  # zh: 只改 t 之后的 token | en: change only the tokens after t
print("a:", a[0].tolist())
print("b:", b[0].tolist())

for causal in [True, False]:
    model = make_model(causal)
    with torch.no_grad():
        diff = (model(a) - model(b)).abs().amax(dim=-1)[0]  # zh: 每个位置的最大差 | en: largest difference per position
    print(f"causal={causal!s:5s} difference per position:", [f"{d:.1g}" for d in diff.tolist()])

# %%
# zh: 更直接的证明：位置 t 的输出对输入各位置的梯度，t 之后全是 0
# en: A more direct proof: the gradient of the output at position t with respect to each input position is 0 after t.
model = make_model(causal=True)
x = model[0](a).detach().requires_grad_()  # zh: 从嵌入之后开始求导 | en: differentiate from after the embedding
out = model[1:](x)
out[0, t].sum().backward()
print("grad norm per input position:", [round(g, 3) for g in x.grad[0].norm(dim=-1).tolist()])
