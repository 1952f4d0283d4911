# /// example
# timeout = 120
# ///
# %%
import inspect
import json
import math
import string
import textwrap
import time

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

# zh: 语料：Python 自带的几个标准库模块的源代码，运行时读取，不用下载
# en: The corpus: the source code of a few standard-library modules, read at run time, no download.
text = "\n".join(inspect.getsource(m) for m in [string, textwrap, json.decoder, json.encoder])
chars = sorted(set(text))
V = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
data = torch.tensor([stoi[ch] for ch in text])
print(f"{len(text):,} characters, vocabulary of {V}")
print(text[:100])

# %%
# zh: 切成 1000 个字符一段，每 10 段里留 1 段做验证集
# en: Cut into 1000-character pieces and keep 1 piece in 10 for validation.
pieces = data.split(1000)
train_data = torch.cat([p for i, p in enumerate(pieces) if i % 10 != 9])
val_data = torch.cat(pieces[9::10])
print(f"train {len(train_data):,} characters, validation {len(val_data):,}")
block_size, batch_size = 64, 16


def get_batch(split):
    d = train_data if split == "train" else val_data
    ix = torch.randint(len(d) - block_size, (batch_size,))
    x = torch.stack([d[i : i + block_size] for i in ix])
    y = torch.stack([d[i + 1 : i + block_size + 1] for i in ix])  # zh: 目标是右移一位的输入 | en: targets are the inputs shifted by one
    return x.to(device), y.to(device)


xb, yb = get_batch("train")
print("x:", tuple(xb.shape), " y:", tuple(yb.shape))
print(repr("".join(chars[i] for i in xb[0, :20].tolist())))
print(repr("".join(chars[i] for i in yb[0, :20].tolist())))


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
    def __init__(self, C, n_head):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.attn = CausalSelfAttention(C, n_head)
        self.mlp = nn.Sequential(nn.Linear(C, 4 * C), nn.GELU(), nn.Linear(4 * C, C))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class CharLM(nn.Module):
    def __init__(self, V, C=64, n_head=4, n_layer=2, block_size=64):
        super().__init__()
        self.block_size = block_size
        self.tok_emb = nn.Embedding(V, C)
        self.pos_emb = nn.Embedding(block_size, C)
        self.blocks = nn.Sequential(*[Block(C, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(C)
        self.head = nn.Linear(C, V)  # zh: 每个位置输出下一个字符的 logits | en: next-character logits at every position

    def forward(self, idx, targets=None):
        T = idx.size(1)
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(T, device=idx.device))
        logits = self.head(self.ln_f(self.blocks(x)))  # zh: 形状 (B, T, V) | en: shape (B, T, V)
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


@torch.no_grad()
def generate(model, idx, n_new, temperature=1.0, generator=None):
    for _ in range(n_new):
        logits, _ = model(idx[:, -model.block_size :])  # zh: 只保留最后 block_size 个 | en: keep the last block_size only
        probs = (logits[:, -1] / temperature).softmax(dim=-1)
        nxt = torch.multinomial(probs, 1, generator=generator)
        idx = torch.cat([idx, nxt], dim=1)
    return idx


def decode(ids):
    return "".join(chars[i] for i in ids.tolist())


model = CharLM(V, block_size=block_size).to(device)
print(f"{sum(p.numel() for p in model.parameters()):,} parameters")
prompt = torch.tensor([[stoi[c] for c in "def "]], device=device)
g = torch.Generator(device=device).manual_seed(42)
print("--- sample before training ---")
print(decode(generate(model.eval(), prompt, 120, generator=g)[0]))


# %%
@torch.no_grad()
def estimate_loss(model, iters=10):
    model.eval()
    out = {}
    for split in ["train", "val"]:
        out[split] = torch.stack([model(*get_batch(split))[1] for _ in range(iters)]).mean().item()
    model.train()
    return out


# zh: 还没训练时，每个字符差不多等可能，损失约为 ln(V)
# en: Before training every character is about equally likely, so the loss is about ln(V).
print(f"ln(V) = {math.log(V):.3f}")

# %%
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
steps, history, evals = 500, [], []
start = time.perf_counter()
for step in range(steps + 1):
    if step % 100 == 0:  # zh: 先评估，所以 step 0 是训练前的损失 | en: evaluate first, so step 0 is the loss before training
        evals.append((step, estimate_loss(model)))
        print(f"step {step:4d}  train {evals[-1][1]['train']:.3f}  val {evals[-1][1]['val']:.3f}")
    if step == steps:
        break
    _, loss = model(*get_batch("train"))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    history.append(loss.item())
elapsed = time.perf_counter() - start

# %% volatile=true
print(f"{steps} steps in {elapsed:.1f} s on {device}")

# %% caption="Training loss of the character-level model" caption_zh="字符级模型的训练损失"
plt.figure(figsize=(6, 3.5))
plt.plot(history, alpha=0.4, label="train (one batch)")
plt.plot([s for s, _ in evals], [e["train"] for _, e in evals], "o-", label="train (estimate)")
plt.plot([s for s, _ in evals], [e["val"] for _, e in evals], "s-", label="validation (estimate)")
plt.xlabel("step")
plt.ylabel("cross-entropy loss")
plt.legend()
plt.grid(alpha=0.3)
plt.tight_layout()
plt.show()

# %%
# zh: 温度除 logits：温度越低，概率越集中在最可能的字符上
# en: Temperature divides the logits: the lower it is, the more probability the likeliest character gets.
model.eval()
with torch.no_grad():
    logits, _ = model(prompt)
for temperature in [0.5, 1.0, 2.0]:
    probs = (logits[0, -1] / temperature).softmax(dim=-1)
    top = probs.argmax().item()
    print(f"temperature {temperature}: most likely next character {chars[top]!r} with probability {probs[top].item():.3f}")

# %%
for temperature in [1.0, 0.7]:
    g = torch.Generator(device=device).manual_seed(42)
    sample = generate(model, prompt, 200, temperature, generator=g)
    print(f"--- after training, temperature {temperature} ---")
    print(decode(sample[0]))
# zh: 同样的种子，同样的文字
# en: The same seed gives the same text.
again = generate(model, prompt, 200, 0.7, generator=torch.Generator(device=device).manual_seed(42))
print("--- same seed again:", torch.equal(sample, again))
