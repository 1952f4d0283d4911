# /// example
# timeout = 120
# ///
# %%
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
from torch.utils.data import DataLoader

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
g = torch.Generator().manual_seed(0)
OPEN, CLOSE = 1, 2  # zh: 0 留给补齐 | en: 0 is kept for padding


def sample(pairs, balanced):
    # zh: n 个 "(" 和 n 个 ")" 随机排列，直到得到想要的那一类
    # en: Shuffle n "(" and n ")" until we get the class we want.
    while True:
        is_open = torch.randperm(2 * pairs, generator=g) < pairs
        depth = torch.where(is_open, 1, -1).cumsum(0)
        if (depth.min() >= 0) == balanced:
            return torch.where(is_open, OPEN, CLOSE)


def make_dataset(size, min_pairs, max_pairs):
    data = []
    for i in range(size):
        pairs = int(torch.randint(min_pairs, max_pairs + 1, (1,), generator=g))
        label = i % 2  # zh: 一半配对，一半不配对 | en: half balanced, half not
        data.append((sample(pairs, balanced=bool(label)), label))
    return data


def text(seq):
    return "".join("(" if t == OPEN else ")" for t in seq.tolist())


train_set = make_dataset(2000, 1, 10)  # zh: 长度 2 到 20 | en: lengths 2 to 20
test_set = make_dataset(500, 1, 10)
long_set = make_dataset(500, 11, 20)  # zh: 长度 22 到 40，训练时没见过 | en: lengths 22 to 40, never seen in training
for seq, label in train_set[:4]:
    print(f"{text(seq):22s} balanced={label}")
# zh: 两类的 "(" 和 ")" 个数完全一样，只有顺序不同
# en: Both classes hold exactly as many "(" as ")": only the order differs.
print("every sequence has equal counts:", all((s == OPEN).sum() == (s == CLOSE).sum() for s, _ in train_set))


# %%
def pad_collate(batch):  # zh: 与 Dataset 一章练习 2 的写法相同 | en: as in exercise 2 of the data chapter
    seqs, labels = zip(*batch, strict=True)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True), lengths, torch.tensor(labels)


class Classifier(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(3, 8, padding_idx=0)
        self.gru = nn.GRU(8, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 2)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embed(tokens), lengths, batch_first=True, enforce_sorted=False)
        _, h_n = self.gru(packed)
        return self.head(h_n[-1])  # zh: 每条序列最后一个真实时间步的状态 | en: each sequence's state at its own last step


def accuracy(model, data):
    tokens, lengths, labels = pad_collate(data)
    model.eval()
    with torch.no_grad():
        pred = model(tokens.to(device), lengths).argmax(dim=1).cpu()
    return (pred == labels).float().mean().item()


model = Classifier().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
loader = DataLoader(train_set, batch_size=64, shuffle=True, collate_fn=pad_collate, generator=g)
losses, norms = [], []
for epoch in range(1, 6):
    model.train()
    for tokens, lengths, labels in loader:
        loss = nn.functional.cross_entropy(model(tokens.to(device), lengths), labels.to(device))
        optimizer.zero_grad()
        loss.backward()
        # zh: 训练 RNN 的常规保险：限制梯度的总范数
        # en: The usual safety net for RNNs: cap the total gradient norm.
        norms.append(nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0).item())
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch}  last-batch loss {losses[-1]:.4f}  test acc {accuracy(model, test_set):.3f}")
print(f"longer test sequences (22-40 tokens): acc {accuracy(model, long_set):.3f}")
print(f"gradient norm before clipping: max {max(norms):.2f}, steps clipped {sum(n > 1.0 for n in norms)}/{len(norms)}")

# %% caption="Training loss per step" caption_zh="每一步的训练损失"
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(losses)
ax.set_yscale("log")
ax.set_xlabel("step")
ax.set_ylabel("cross-entropy loss")
fig.tight_layout()
plt.show()

# %%
model.eval()
for s in ["(())()", "())(()", "((((((((((()))))))))))", "()()()()()()()()()()()()()())(", ")("]:
    seq = torch.tensor([OPEN if ch == "(" else CLOSE for ch in s])
    with torch.no_grad():
        p = model(seq.unsqueeze(0).to(device), torch.tensor([len(seq)])).softmax(dim=1)[0, 1].item()
    print(f"{s:32s} P(balanced) = {p:.3f}")
