# %%
import mmap

import torch
from torch import nn

torch.manual_seed(0)
torch.save(nn.Linear(256, 256).state_dict(), "layer.pt")


def load_mapped():
    state = torch.load("layer.pt", mmap=True, weights_only=True)
    with torch.device("meta"):
        layer = nn.Linear(256, 256)
    layer.load_state_dict(state, assign=True)
    return layer


def train_one_step(layer, lr=0.1):
    layer(torch.randn(4, 256)).pow(2).mean().backward()
    with torch.no_grad():
        for p in layer.parameters():
            p -= lr * p.grad  # zh: 和 SGD 的 step 一样，就地修改映射来的参数 | en: like SGD's step: the mapped parameters change in place


print("default mmap flags are MAP_PRIVATE:", torch.serialization.get_default_mmap_options() == mmap.MAP_PRIVATE)
layer = load_mapped()
before = layer.weight.detach().clone()
train_one_step(layer)
on_disk = torch.load("layer.pt", weights_only=True)["weight"]
print("MAP_PRIVATE: parameters changed:", not torch.equal(layer.weight, before),
      "| file changed:", not torch.equal(on_disk, before))

# %%
# zh: MAP_SHARED：写入直接落到文件上。训练一步，文件里的权重就变了
# en: MAP_SHARED: writes go straight to the file. One training step, and the weights in the file have changed.
with torch.serialization.set_default_mmap_options(mmap.MAP_SHARED):
    layer = load_mapped()
train_one_step(layer)
del layer  # zh: 解除映射 | en: unmap
on_disk = torch.load("layer.pt", weights_only=True)["weight"]
print("MAP_SHARED: file changed:", not torch.equal(on_disk, before))
