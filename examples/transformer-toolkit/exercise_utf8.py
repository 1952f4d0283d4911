# %%
import codecs
from collections import Counter
from itertools import pairwise


def merge(ids, pair, new_id):
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
    ids = list(text.encode("utf-8"))
    merges, vocab = {}, {i: bytes([i]) for i in range(256)}
    for k in range(n_merges):
        counts = Counter(pairwise(ids))
        pair = max(counts, key=counts.get)
        ids = merge(ids, pair, 256 + k)
        merges[pair], vocab[256 + k] = 256 + k, vocab[pair[0]] + vocab[pair[1]]
    return merges, vocab


def encode(text, merges):
    ids = list(text.encode("utf-8"))
    while len(ids) >= 2:
        pair = min(pairwise(ids), key=lambda p: merges.get(p, float("inf")))
        if pair not in merges:
            break
        ids = merge(ids, pair, merges[pair])
    return ids


# zh: 中文在 UTF-8 里一个字占 3 个字节
# en: In UTF-8 a Chinese character takes 3 bytes.
sentence = "注意力让每个位置直接看到所有位置。"
print(f"{len(sentence)} characters -> {len(sentence.encode('utf-8'))} bytes")
text = (sentence + "注意力的权重来自查询和键的点积。") * 20  # zh: 一小段重复的训练文本 | en: a short, repeated training text
merges, vocab = train_bpe(text, 40)


def is_whole(token):
    # zh: 这个 token 的字节单独能不能解码成文字
    # en: Whether this token's bytes decode to text on their own.
    try:
        token.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


learned = [vocab[256 + k] for k in range(40)]
print("learned tokens that are not whole characters:", sum(not is_whole(t) for t in learned), "of", len(learned))
print("first 6 merges as bytes:", learned[:6])

# %%
ids = encode("注意力的权重", merges)
print("tokens:", ids)
print("decoded together:", b"".join(vocab[i] for i in ids).decode("utf-8"))
# zh: 流式输出时逐个 token 解码：半个字变成替换字符 U+FFFD
# en: Decoding token by token, as a streaming chat does: half a character becomes the replacement character U+FFFD.
print("one by one:      ", "".join(vocab[i].decode("utf-8", errors="replace") for i in ids))
# zh: 正确做法：增量解码器把不完整的字节留到下一个 token
# en: The fix: an incremental decoder holds incomplete bytes until the next token arrives.
decoder = codecs.getincrementaldecoder("utf-8")()
print("incremental:     ", "".join(decoder.decode(vocab[i]) for i in ids))
