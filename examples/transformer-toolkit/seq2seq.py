# %%
import time

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

# zh: 任务：把 3 到 8 个数字倒过来写。0-9 是数字，另有三个特殊 token
# en: The task: write 3 to 8 digits backwards. 0-9 are digits, plus three special tokens.
PAD, BOS, EOS, V = 10, 11, 12, 13
MAX_LEN = 8


def make_batch(n, generator):
    lengths = torch.randint(3, MAX_LEN + 1, (n,), generator=generator)
    src = torch.full((n, MAX_LEN), PAD)
    tgt = torch.full((n, MAX_LEN + 2), PAD)  # zh: BOS + 倒序的数字 + EOS | en: BOS + reversed digits + EOS
    for i, n_digits in enumerate(lengths.tolist()):
        digits = torch.randint(0, 10, (n_digits,), generator=generator)
        src[i, :n_digits] = digits
        tgt[i, 0], tgt[i, 1 : n_digits + 1], tgt[i, n_digits + 1] = BOS, digits.flip(0), EOS
    return src.to(device), tgt.to(device)


src, tgt = make_batch(2, torch.Generator().manual_seed(0))
print("src:", src.tolist())
print("tgt:", tgt.tolist())


# %%
def causal_mask(T):
    return torch.ones(T, T, dtype=torch.bool, device=device).triu(1)  # zh: nn.Transformer 里 True 表示“不许看” | en: in nn.Transformer True means "may not attend"


class Seq2Seq(nn.Module):
    def __init__(self, C=32, n_head=4, n_layers=2):
        super().__init__()
        self.tok_emb = nn.Embedding(V, C)
        self.pos_emb = nn.Embedding(MAX_LEN + 2, C)
        self.transformer = nn.Transformer(C, n_head, n_layers, n_layers, dim_feedforward=2 * C, dropout=0.0,
                                          batch_first=True)
        self.head = nn.Linear(C, V)

    def embed(self, ids):
        return self.tok_emb(ids) + self.pos_emb(torch.arange(ids.size(1), device=ids.device))

    def encode(self, src):
        return self.transformer.encoder(self.embed(src), src_key_padding_mask=src == PAD)

    def decode(self, tgt_in, memory, src):
        T = tgt_in.size(1)
        h = self.transformer.decoder(self.embed(tgt_in), memory, tgt_mask=causal_mask(T), tgt_is_causal=True,
                                     tgt_key_padding_mask=tgt_in == PAD, memory_key_padding_mask=src == PAD)
        return self.head(h)

    def forward(self, src, tgt_in):
        return self.decode(tgt_in, self.encode(src), src)


model = Seq2Seq().to(device)
print(f"{sum(p.numel() for p in model.parameters()):,} parameters")

# %%
# zh: 教师强制：解码器的输入是正确答案右移一位（以 BOS 开头），所有位置一次算完
# en: Teacher forcing: the decoder reads the right answer shifted by one (starting with BOS), all positions at once.
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
generator = torch.Generator().manual_seed(1)
steps = 150
start = time.perf_counter()
for step in range(steps + 1):
    src, tgt = make_batch(64, generator)
    logits = model(src, tgt[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), tgt[:, 1:].reshape(-1), ignore_index=PAD)  # zh: 填充不计入损失 | en: padding is left out of the loss
    if step % 50 == 0:
        print(f"step {step:3d}  loss {loss.item():.3f}")
    if step == steps:
        break
    optimizer.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # zh: 裁剪梯度，训练更稳 | en: clip gradients for a steadier run
    optimizer.step()
elapsed = time.perf_counter() - start

# %% volatile=true
print(f"{steps} steps in {elapsed:.1f} s on {device}")


# %% warns="UserWarning"
# zh: 贪心解码：编码一次，然后每一步把自己刚预测的 token 接到解码器输入后面
# en: Greedy decoding: encode once, then at every step append the token just predicted to the decoder's input.
@torch.no_grad()
def greedy(model, src):
    model.eval()
    memory = model.encode(src)
    out = torch.full((src.size(0), 1), BOS, device=device)
    for _ in range(MAX_LEN + 1):
        nxt = model.decode(out, memory, src)[:, -1].argmax(dim=-1, keepdim=True)
        out = torch.cat([out, nxt], dim=1)
    return out


src, tgt = make_batch(1000, torch.Generator().manual_seed(123))  # zh: 没见过的数据 | en: unseen data
pred = greedy(model, src)
n_digits = (src != PAD).sum(dim=1)
keep = torch.arange(MAX_LEN + 2, device=device) <= n_digits[:, None] + 1  # zh: BOS、数字和 EOS | en: BOS, the digits and EOS
exact = ((pred == tgt) | ~keep).all(dim=1)
print(f"sequences exactly right: {exact.float().mean().item():.1%}")
for i in range(3):
    n = int(n_digits[i])
    print(src[i, :n].tolist(), "->", pred[i, 1 : n + 1].tolist(), "EOS" if pred[i, n + 1] == EOS else "no EOS")

# %%
# zh: 教师强制下逐个 token 的准确率，和自己生成时的整句准确率比较
# en: Per-token accuracy under teacher forcing, next to whole-sequence accuracy when the model feeds itself.
with torch.no_grad():
    tf_pred = model(src, tgt[:, :-1]).argmax(dim=-1)
mask = tgt[:, 1:] != PAD
print(f"teacher-forced token accuracy: {(tf_pred == tgt[:, 1:])[mask].float().mean().item():.1%}")
print("exactly right, by length:", {n: f"{exact[n_digits == n].float().mean().item():.0%}" for n in range(3, MAX_LEN + 1)})
