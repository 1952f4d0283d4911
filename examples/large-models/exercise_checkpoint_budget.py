# %%
import math

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 小模型：多开线程得不偿失 | en: a small model: extra threads cost more than they save


class Block(nn.Module):
    calls = 0

    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(), nn.Dropout(0.1), nn.Linear(4 * d, d))

    def forward(self, x):
        Block.calls += 1
        return x + self.net(x)


class Model(nn.Module):
    def __init__(self, d=128, n_blocks=8):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_blocks))
        self.n_checkpointed = 0  # zh: 前多少个块做检查点 | en: how many blocks, from the first, are checkpointed

    def forward(self, x):
        for i, block in enumerate(self.blocks):
            x = checkpoint(block, x, use_reentrant=False) if i < self.n_checkpointed else block(x)
        return x


model = Model().to(device)
x = torch.randn(16, 64, 128, device=device)
params = {p.untyped_storage().data_ptr() for p in model.parameters()}


def saved_mib_and_calls(n_checkpointed):
    model.n_checkpointed = n_checkpointed
    Block.calls = 0
    saved = {}

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in params:
            saved[ptr] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = model(x).pow(2).mean()
    loss.backward()
    model.zero_grad()
    return sum(saved.values()) / 2**20, Block.calls


budget_mib = 20
for n in range(0, 9, 2):
    mib, calls = saved_mib_and_calls(n)
    print(f"{n} of 8 blocks checkpointed: saved {mib:5.2f} MiB, {calls} block forward calls, "
          f"fits {budget_mib} MiB: {mib <= budget_mib}")

# %%
# zh: 保存的字节数随检查点块数线性下降：每多一个检查点块省下多少，由两端算出，再求满足预算的最少块数
# en: The saved bytes fall linearly with the number of checkpointed blocks: the two ends give what each one saves,
# en: and from that the fewest blocks that meet the budget.
full, _ = saved_mib_and_calls(0)
least, _ = saved_mib_and_calls(8)
per_block = (full - least) / 8
print(f"each checkpointed block saves {per_block:.2f} MiB")
fewest = math.ceil((full - budget_mib) / per_block)
mib, calls = saved_mib_and_calls(fewest)
print(f"fewest checkpointed blocks within {budget_mib} MiB: {fewest} (saved {mib:.2f} MiB, {calls - 8} blocks recomputed)")
