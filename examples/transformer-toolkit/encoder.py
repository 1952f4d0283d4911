# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

C, n_head = 32, 4
# zh: 一层编码器：自注意力 + 前馈网络，各带残差和 LayerNorm；norm_first=True 是 pre-norm
# en: One encoder layer: self-attention + feed-forward, each with a residual and a LayerNorm; norm_first=True is pre-norm.
layer = nn.TransformerEncoderLayer(C, n_head, dim_feedforward=4 * C, dropout=0.0, batch_first=True, norm_first=True)
for name, module in layer.named_children():
    print(f"{name:15s} {type(module).__name__:22s} {sum(p.numel() for p in module.parameters()):6d}")
print(f"total {sum(p.numel() for p in layer.parameters())}   12C² + 13C = {12 * C**2 + 13 * C}")

# %% warns="UserWarning"
encoder = nn.TransformerEncoder(layer, num_layers=2)  # zh: 默认 enable_nested_tensor=True | en: enable_nested_tensor=True by default

# %%
# zh: pre-norm 用不上嵌套张量：明说不要它，警告就没有了
# en: Pre-norm cannot use nested tensors: say so explicitly and the warning is gone.
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False).to(device)
print("layers are copies:", encoder.layers[0] is not layer, encoder.layers[0] is not encoder.layers[1])
# zh: 每层都是同一个 layer 的深拷贝，所以初始权重完全相同
# en: Every layer is a deep copy of the same layer, so they all start with identical weights.
print("identical initial weights:", torch.equal(encoder.layers[0].linear1.weight, encoder.layers[1].linear1.weight))
print("parameters:", sum(p.numel() for p in encoder.parameters()))

# %%
# zh: 长度不同的三条序列补齐成一批，src_key_padding_mask 里 True 表示填充
# en: Three sequences of different lengths padded into one batch; True in src_key_padding_mask marks padding.
lengths = torch.tensor([6, 4, 2], device=device)
T = int(lengths.max())
x = torch.randn(3, T, C, device=device)
pad_mask = torch.arange(T, device=device) >= lengths[:, None]
with torch.no_grad():
    out = encoder(x, src_key_padding_mask=pad_mask)
    for i, n in enumerate(lengths.tolist()):
        alone = encoder(x[i : i + 1, :n])
        print(f"sequence {i}: max abs difference to running it alone {(out[i, :n] - alone[0]).abs().max().item():.1e}")


# %%
# zh: 用掩码求平均（池化），得到每条序列一个向量
# en: A masked mean (pooling) gives one vector per sequence.
def masked_mean(h, pad_mask):
    keep = (~pad_mask).unsqueeze(-1).to(h.dtype)  # zh: (B, T, 1)：真实 token 为 1 | en: (B, T, 1): 1 for real tokens
    return (h * keep).sum(dim=1) / keep.sum(dim=1)


with torch.no_grad():
    pooled = masked_mean(out, pad_mask)
    print("pooled:", tuple(pooled.shape))
    print("sequence 2 pooled as if alone:", torch.allclose(pooled[2], encoder(x[2:3, :2]).mean(dim=1)[0], atol=1e-6))
    print("plain mean over padding too:  ", torch.allclose(out[2].mean(dim=0), encoder(x[2:3, :2]).mean(dim=1)[0], atol=1e-6))

# %% warns="UserWarning"
# zh: 快速路径：post-norm 的编码器在 eval 模式、不求梯度时，把补齐的批量转成嵌套张量，跳过填充
# en: The fast path: a post-norm encoder in eval mode without gradients turns the padded batch into a nested tensor and skips the padding.
post = nn.TransformerEncoder(
    nn.TransformerEncoderLayer(C, n_head, dim_feedforward=4 * C, dropout=0.0, batch_first=True), num_layers=2
).to(device)
with torch.no_grad():
    slow = post.train()(x, src_key_padding_mask=pad_mask)
    fast = post.eval()(x, src_key_padding_mask=pad_mask)
real = ~pad_mask
print("real tokens equal:", torch.allclose(slow[real], fast[real], atol=1e-5),
      f" max abs difference {(slow[real] - fast[real]).abs().max().item():.1e}")
print("padded outputs, train mode: all zero?", bool((slow[pad_mask] == 0).all()))
print("padded outputs, fast path:  all zero?", bool((fast[pad_mask] == 0).all()))
