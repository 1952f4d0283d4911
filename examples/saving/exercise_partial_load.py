# %%
import torch
from torch import nn

torch.manual_seed(0)


def make(num_classes):
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, num_classes))


pretrained = make(10).state_dict()
model = make(3)  # zh: 同样的主干，新的 3 类输出头 | en: the same backbone, a new 3-class head
head_before = model[4].weight.detach().clone()

# %% raises="RuntimeError"
# zh: 形状不符时，即使 strict=False 也会报错
# en: A shape mismatch raises even with strict=False.
model.load_state_dict(pretrained, strict=False)

# %%
# zh: 只保留形状相同的条目，其余的交给 strict=False
# en: Keep only the entries whose shapes match, and let strict=False skip the rest.
own = model.state_dict()
compatible = {k: v for k, v in pretrained.items() if k in own and v.shape == own[k].shape}
result = model.load_state_dict(compatible, strict=False)
print("loaded:", list(compatible))
print("missing (kept as initialised):", result.missing_keys)

for k in compatible:
    assert torch.equal(model.state_dict()[k], pretrained[k])
assert torch.equal(model[4].weight, head_before)
print("backbone equals the pretrained weights; the head is untouched")
