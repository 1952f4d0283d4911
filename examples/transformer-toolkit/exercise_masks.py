# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save

C = 16
model = nn.Transformer(C, 4, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=2 * C, dropout=0.0,
                       batch_first=True).to(device)
src = torch.randn(1, 3, C, device=device)  # zh: 3 个真实的源 token | en: 3 real source tokens
tgt = torch.randn(1, 4, C, device=device)
causal = torch.ones(4, 4, dtype=torch.bool, device=device).triu(1)  # zh: True 表示“不许看” | en: True means "may not attend"


def run(n_pad, drop=None, tgt=tgt):
    # zh: 在源序列后面补 n_pad 个随机向量；drop 指定去掉哪个掩码
    # en: Append n_pad random vectors to the source; drop names the mask to leave out.
    x = torch.cat([src, torch.randn(1, n_pad, C, device=device)], dim=1)
    pad = torch.arange(x.size(1), device=device)[None] >= 3
    masks = {"src_key_padding_mask": pad, "memory_key_padding_mask": pad, "tgt_mask": causal}
    if drop:
        del masks[drop]
    with torch.no_grad():
        return model(x, tgt, **masks)


reference = run(0)
print("all three masks, 5 padded positions:", f"{(run(5) - reference).abs().max().item():.1e}")
for drop in ["src_key_padding_mask", "memory_key_padding_mask"]:
    print(f"without {drop:24s} {(run(5, drop) - reference).abs().max().item():.1e}")

# %%
# zh: tgt_mask：改掉最后一个目标 token，前面位置的输出变不变
# en: tgt_mask: change the last target token and see whether the earlier positions' outputs move.
changed = tgt.clone()
changed[0, -1] = torch.randn(C, device=device)
for drop in [None, "tgt_mask"]:
    diff = (run(0, drop, changed) - run(0, drop))[0, :3].abs().max().item()
    print(f"{'with' if drop is None else 'without'} tgt_mask: positions 0-2 change by {diff:.1e}")
