# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

# zh: 512 条长度不一的序列：多数较短，少数很长
# en: 512 sequences of varied length: most short, a few long.
lengths = (3.0 + 0.6 * torch.randn(512)).exp().long().clamp(2, 128)  # zh: 对数正态分布 | en: log-normal
print(f"lengths: min {lengths.min().item()}, median {lengths.median().item()}, max {lengths.max().item()}")


def batches_of(order, batch_size=32):
    return [order[i : i + batch_size] for i in range(0, len(order), batch_size)]


def cost(batches):
    # zh: 补齐后的 token 数，其中填充的比例，以及注意力分数的个数（每批 B·T²）
    # en: Tokens after padding, the share of them that is padding, and the attention scores (B·T² per batch).
    padded = sum(len(b) * lengths[b].max().item() for b in batches)
    scores = sum(len(b) * lengths[b].max().item() ** 2 for b in batches)
    return padded, 1 - lengths.sum().item() / padded, scores


random_batches = batches_of(torch.randperm(512))
# zh: 按长度分桶：先排序再切批，最后打乱批的顺序
# en: Bucketing by length: sort, cut into batches, then shuffle the order of the batches.
sorted_batches = batches_of(lengths.argsort())
bucketed = [sorted_batches[i] for i in torch.randperm(len(sorted_batches))]
for name, batches in [("random", random_batches), ("bucketed", bucketed)]:
    padded, waste, scores = cost(batches)
    print(f"{name:8s}  tokens after padding {padded:6,d}  padding {waste:.0%}  attention scores {scores:10,d}")
ratio = cost(random_batches)[2] / cost(bucketed)[2]
print(f"random batches compute {ratio:.1f}x the attention scores")

# %%
# zh: 有了填充掩码，怎么分批不影响结果：每条序列的池化向量和分批方式无关
# en: With a padding mask, batching does not change the results: each sequence's pooled vector is the same either way.
C = 16
layer = nn.TransformerEncoderLayer(C, 4, dim_feedforward=2 * C, dropout=0.0, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False).to(device).eval()
tokens = [torch.randn(n, C, device=device) for n in lengths.tolist()]


def pooled(batches):
    out = torch.empty(512, C, device=device)
    with torch.no_grad():
        for b in batches:
            x = nn.utils.rnn.pad_sequence([tokens[i] for i in b], batch_first=True)
            pad_mask = torch.arange(x.size(1), device=device) >= lengths[b].to(device)[:, None]
            h = encoder(x, src_key_padding_mask=pad_mask)
            keep = (~pad_mask).unsqueeze(-1).float()
            out[b] = (h * keep).sum(dim=1) / keep.sum(dim=1)
    return out


a, b = pooled(random_batches), pooled(bucketed)
print("same pooled vectors:", torch.allclose(a, b, atol=1e-5), f" max abs difference {(a - b).abs().max().item():.1e}")
