# %% raises="ValueError"
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 训练模式的 BN 在每个通道只有一个值时无法计算方差
# en: BN in training mode cannot compute a variance from a single value per channel.
bn = nn.BatchNorm2d(8).to(device)
bn(torch.randn(1, 8, 1, 1, device=device))

# %%
# zh: 小批量时 BN 的统计量噪声很大：同一个样本在不同的批量里得到不同的输出
# en: With small batches BN's statistics are noisy: the same sample gets different outputs in different batches.
sample = torch.randn(1, 8, 4, 4, device=device)
gn = nn.GroupNorm(num_groups=2, num_channels=8).to(device)  # zh: 每个样本自己归一化，4 个通道一组 | en: each sample on its own, 4 channels per group
for batch_size in (2, 8, 32):
    spreads = {}
    for name, norm in (("BatchNorm", bn), ("GroupNorm", gn)):
        outs = []
        for _ in range(20):
            batch = torch.cat([sample, torch.randn(batch_size - 1, 8, 4, 4, device=device)])
            outs.append(norm(batch)[0])
        spreads[name] = torch.stack(outs).std(dim=0).mean().item()
    print(f"batch {batch_size:2d}: spread of sample 0's output  BatchNorm {spreads['BatchNorm']:.4f}"
          f"  GroupNorm {spreads['GroupNorm']:.4f}")
