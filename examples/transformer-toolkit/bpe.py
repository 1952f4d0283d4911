# %%
import codecs
import contextlib
import inspect
import io
import textwrap
from collections import Counter
from itertools import pairwise

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

with contextlib.redirect_stdout(io.StringIO()):  # zh: import this 会打印禅语，这里先收起来 | en: importing this prints the Zen; keep it quiet
    import this

# zh: 训练语料：标准库 textwrap 模块的源代码；留出的文本：Python 之禅（this.s 是 rot13 编码的）
# en: Training text: the source of the standard library's textwrap; held-out text: the Zen of Python (this.s is rot13-encoded).
train_text = inspect.getsource(textwrap)
zen = codecs.decode(this.s, "rot13")
print(f"training text: {len(train_text):,} characters, {len(train_text.encode('utf-8')):,} bytes")
print(f"held-out text: {len(zen):,} characters")
print(zen[:70])


# %%
def pair_counts(ids):
    return Counter(pairwise(ids))  # zh: 相邻两个 token 组成的对，各出现几次 | en: how often each adjacent pair occurs


def merge(ids, pair, new_id):
    # zh: 把序列里所有的 pair 换成一个新 token
    # en: Replace every occurrence of pair with one new token.
    out, i = [], 0
    while i < len(ids):
        if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
            out.append(new_id)
            i += 2
        else:
            out.append(ids[i])
            i += 1
    return out


def train_bpe(text, n_merges):
    ids = list(text.encode("utf-8"))  # zh: 从 256 个字节出发 | en: start from the 256 bytes
    merges, vocab, lengths = {}, {i: bytes([i]) for i in range(256)}, [len(ids)]
    for k in range(n_merges):
        counts = pair_counts(ids)
        pair = max(counts, key=counts.get)  # zh: 最常见的一对 | en: the most frequent pair
        new_id = 256 + k
        ids = merge(ids, pair, new_id)
        merges[pair] = new_id
        vocab[new_id] = vocab[pair[0]] + vocab[pair[1]]
        lengths.append(len(ids))
    return merges, vocab, lengths


merges, vocab, lengths = train_bpe(train_text, 400)
print("first 12 merges:", [vocab[i].decode() for i in range(256, 268)])
longest = sorted(vocab.values(), key=len)[-5:]
print("longest tokens:", [t.decode() for t in longest])


# %%
def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        # zh: 在出现的对里，找最早学到的那一个合并，和训练时的顺序一致
        # en: Among the pairs present, merge the one learned first, in training order.
        pair = min(pair_counts(ids), key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


def decode(ids, vocab):
    return b"".join(vocab[i] for i in ids).decode("utf-8")


ids = encode(zen, merges)
print("round trip:", decode(ids, vocab) == zen)
print(f"{len(zen.encode('utf-8'))} bytes -> {len(ids)} tokens")
print([decode([i], vocab) for i in encode("Beautiful is better than ugly.", merges)])

# %%
# zh: 词表越大，序列越短：训练文本和没见过的文本都是如此
# en: A larger vocabulary gives shorter sequences, on the training text and on unseen text alike.
print("merges  vocabulary  train tokens  bytes/token   Zen tokens  bytes/token")
for k in [0, 50, 100, 200, 400]:
    first_k = dict(list(merges.items())[:k])
    n_zen = len(encode(zen, first_k))
    n_train = lengths[k]
    print(f"{k:6d}  {256 + k:10d}  {n_train:12,d}  {lengths[0] / n_train:11.2f}   {n_zen:10d}  {len(zen.encode('utf-8')) / n_zen:11.2f}")

# %%
# zh: token 编号进入模型：词表大小决定嵌入表的行数，序列长度决定注意力分数的个数
# en: Token ids enter the model: the vocabulary sets the rows of the embedding table, the length sets the attention scores.
C = 64
for k in [0, 400]:
    ids = torch.tensor(encode(zen, dict(list(merges.items())[:k])), device=device)
    table = nn.Embedding(256 + k, C).to(device)
    print(f"vocabulary {256 + k}: embedding parameters {table.weight.numel():,}, "
          f"Zen as {tuple(table(ids).shape)}, attention scores per head {len(ids) ** 2:,}")
