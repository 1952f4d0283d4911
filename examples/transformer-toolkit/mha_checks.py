# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
mha = nn.MultiheadAttention(embed_dim=12, num_heads=3, batch_first=True).to(device)
print("embed_dim 12, num_heads 3 -> head_dim", mha.head_dim)

# %% raises="AssertionError"
nn.MultiheadAttention(embed_dim=10, num_heads=3)

# %%
# zh: nn.TransformerEncoderLayer 内部建的就是 nn.MultiheadAttention，断言相同
# en: nn.TransformerEncoderLayer builds an nn.MultiheadAttention inside: the same assertion.
try:
    nn.TransformerEncoderLayer(d_model=10, nhead=3)
except AssertionError as e:
    print("TransformerEncoderLayer(d_model=10, nhead=3): AssertionError:", e)
print("head counts that divide 10:", [h for h in range(1, 11) if 10 % h == 0])

# %% raises="AssertionError"
# zh: 词向量是 4 维，注意力层却按 embed_dim=8 建
# en: The embeddings are 4 wide, but the attention layer was built with embed_dim=8.
emb = nn.Embedding(100, 4).to(device)
attn = nn.MultiheadAttention(embed_dim=8, num_heads=2, batch_first=True).to(device)
x = emb(torch.randint(0, 100, (2, 5), device=device))
print("x:", tuple(x.shape))
attn(x, x, x)

# %%
# zh: 评估模式、不求梯度时走快速路径，报错的措辞不同
# en: In evaluation mode without gradients the fast path runs, and the message is worded differently.
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, batch_first=True).to(device).eval()
with torch.no_grad():
    try:
        layer(x)
    except (AssertionError, RuntimeError) as e:
        print(f"fast path: {type(e).__name__}: {e}")

# %%
# zh: 改法：query 的最后一维必须等于 embed_dim，先用 nn.Linear 投影；key 和 value 可以用 kdim、vdim 声明别的宽度
# en: The fix: the query's last dim must equal embed_dim, so project it first with nn.Linear; keys and values may declare another width with kdim and vdim.
proj = nn.Linear(4, 8).to(device)
h = proj(x)
out, w = attn(h, h, h)
print("projected to 8:", tuple(out.shape))
cross = nn.MultiheadAttention(embed_dim=8, num_heads=2, kdim=4, vdim=4, batch_first=True).to(device)
out, w = cross(h, x, x)
print("kdim=vdim=4:", tuple(out.shape), " weights:", tuple(w.shape))
