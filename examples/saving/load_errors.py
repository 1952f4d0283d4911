# %%
import os
import tempfile
from collections import OrderedDict

import torch
from torch import nn

torch.manual_seed(0)


def make_net(num_classes=10, head="fc"):
    return nn.Sequential(OrderedDict([
        ("features", nn.Sequential(nn.Linear(8, 16), nn.ReLU())),
        (head, nn.Linear(16, num_classes)),
    ]))


# zh: 训练时模型包了一层 DataParallel（DistributedDataParallel 也一样），保存的键多了 module. 前缀
# en: During training the model was wrapped in DataParallel (DistributedDataParallel too): the saved keys gain module.
tmpdir = tempfile.TemporaryDirectory()
path = os.path.join(tmpdir.name, "checkpoint.pth")
torch.save(nn.DataParallel(make_net()).state_dict(), path)

state = torch.load(path, map_location="cpu", weights_only=True)
print("saved keys:   ", list(state))
# zh: torch.compile 返回的模块也一样，前缀是 _orig_mod.
# en: The module torch.compile returns does the same, with the prefix _orig_mod.
print("compiled keys:", list(torch.compile(make_net()).state_dict()))

# %% raises="RuntimeError"
model = make_net()
model.load_state_dict(state)

# %%
# zh: 去掉前缀再加载
# en: Strip the prefix, then load.
clean = {k.removeprefix("module.").removeprefix("_orig_mod."): v for k, v in state.items()}
print(model.load_state_dict(clean))

# %%
# zh: 层改了名（fc 改成 classifier）：strict=False 不报错，但输出头根本没有加载
# en: A renamed layer (fc became classifier): strict=False raises nothing, yet the head was never loaded.
result = make_net(head="classifier").load_state_dict(clean, strict=False)
print("missing_keys:   ", result.missing_keys)
print("unexpected_keys:", result.unexpected_keys)

# %% raises="RuntimeError"
# zh: 换了输出头（10 类改成 3 类）：形状对不上
# en: A new head (10 classes became 3): the shapes differ.
model3 = make_net(num_classes=3)
model3.load_state_dict(clean)

# %%
# zh: 加载除输出头以外的全部权重，输出头保持初始值
# en: Load everything but the head, which keeps its initial values.
backbone = {k: v for k, v in clean.items() if not k.startswith("fc.")}
result = model3.load_state_dict(backbone, strict=False)
print("missing_keys:   ", result.missing_keys)
print("unexpected_keys:", result.unexpected_keys)
print("backbone loaded:", torch.equal(model3.features[0].weight, clean["features.0.weight"]))
