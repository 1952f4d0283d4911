# %%
import os
import tempfile

import torch
from torch import nn

torch.manual_seed(0)


def make_model():
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))


model = make_model()
tmpdir = tempfile.TemporaryDirectory()
path = os.path.join(tmpdir.name, "model_weights.pth")

torch.save(model.state_dict(), path)
print("files:", os.listdir(tmpdir.name))

# %%
# zh: 先建好同样的结构，再填入权重
# en: Build the same architecture first, then fill in the weights.
model2 = make_model()
result = model2.load_state_dict(torch.load(path, weights_only=True))
print("load_state_dict returned:", result)
model2.eval()  # zh: 用于推理（影响 dropout / batch norm） | en: for inference (matters for dropout / batch norm)

x = torch.randn(3, 4)
print("same outputs:", torch.equal(model(x), model2(x)))

# %% raises="UnpicklingError"
# zh: 整个被 pickle 的模块不是单纯的权重：weights_only=True 拒绝加载
# en: A whole pickled module is not plain weights: weights_only=True refuses it.
whole = os.path.join(tmpdir.name, "whole_model.pth")
torch.save(model, whole)
torch.load(whole, weights_only=True)


# %%
# zh: 为什么要拒绝：反序列化 pickle 可以调用任意函数。这个对象在加载时会调用 print，
# zh: 换成 os.system 也一样能执行
# en: Why refuse: unpickling can call any function. This object calls print when loaded;
# en: os.system would run just as well.
class Payload:
    def __reduce__(self):
        return (print, ("arbitrary code ran while loading!",))


evil = os.path.join(tmpdir.name, "evil.pth")
torch.save(Payload(), evil)
loaded = torch.load(evil, weights_only=False)
print("torch.load returned:", loaded)

# %% raises="UnpicklingError"
torch.load(evil, weights_only=True)  # zh: 不执行，直接拒绝 | en: refused, nothing runs

# %%
# zh: 只对完全信任的文件用 weights_only=False
# en: weights_only=False only for files you fully trust.
loaded = torch.load(whole, weights_only=False)
print("loaded type:", type(loaded).__name__)

# %% raises="RuntimeError"
# zh: 结构不匹配会明确报错（默认 strict=True）
# en: A mismatched architecture fails loudly (strict=True by default).
nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).load_state_dict(torch.load(path, weights_only=True))
