# %%
import math

import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class SinusoidalEncoder(nn.Module):
    def __init__(self, d=8, max_len=16):
        super().__init__()
        self.d, self.max_len = d, max_len
        self.proj = nn.Linear(d, d)
        # zh: 固定的正弦位置编码：算得出来，不必存进检查点，所以 persistent=False
        # en: Fixed sinusoidal positions: they can be computed, so they stay out of checkpoints (persistent=False).
        self.register_buffer("pe", self.positions(d, max_len), persistent=False)

    @staticmethod
    def positions(d, max_len):
        pos = torch.arange(max_len).unsqueeze(1)
        freq = torch.exp(torch.arange(0, d, 2) * (-math.log(10000.0) / d))
        pe = torch.zeros(max_len, d)
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * freq), torch.cos(pos * freq)
        return pe

    def reset_buffers(self):
        # zh: 在参数所在的设备上重新计算缓冲区
        # en: Recompute the buffer on the parameters' device.
        self.pe = self.positions(self.d, self.max_len).to(self.proj.weight.device)

    def forward(self, x):
        return self.proj(x + self.pe[: x.size(1)])


torch.manual_seed(0)
reference = SinusoidalEncoder().to(device)
state = reference.state_dict()
print("keys in the state dict:", list(state))

with torch.device("meta"):
    model = SinusoidalEncoder()
print(model.load_state_dict(state, assign=True))
print("still on meta:", [name for name, t in [*model.named_parameters(), *model.named_buffers()] if t.is_meta])

# %% raises="RuntimeError"
x = torch.randn(2, 5, 8, device=device)
model(x)

# %%
# zh: 修正：加载之后，把不在状态字典里的缓冲区在真实设备上重新算一遍
# en: The fix: after loading, compute the buffers that are not in the state dict again, on the real device.
model.reset_buffers()
print("still on meta:", [name for name, t in [*model.named_parameters(), *model.named_buffers()] if t.is_meta])
print("same output as the reference:", torch.equal(model(x), reference(x)))

# %%
# zh: 另一条路更危险：to_empty 之后再普通加载，缓冲区是未初始化的内存，前向不报错，结果却是错的
# en: The other route is worse: after to_empty and a plain load, the buffer is uninitialised memory; the forward
# en: pass runs without an error and gives a wrong result.
with torch.device("meta"):
    model = SinusoidalEncoder()
model.to_empty(device=device)
print(model.load_state_dict(reference.state_dict()))
print("pe equals the reference's:", torch.equal(model.pe, reference.pe))
print("same output as the reference:", torch.allclose(model(x), reference(x)))
