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
model2 = make_model()  # build the same architecture first, then fill in the weights
result = model2.load_state_dict(torch.load(path))
print("load_state_dict returned:", result)
model2.eval()  # for inference (matters for dropout / batch norm)

x = torch.randn(3, 4)
print("same outputs:", torch.equal(model(x), model2(x)))

# %%
# the whole pickled module is NOT plain weights: the default weights_only=True refuses it
whole = os.path.join(tmpdir.name, "whole_model.pth")
torch.save(model, whole)
try:
    torch.load(whole)
except Exception as e:
    print("exception:", type(e).__name__)
    for line in str(e).splitlines():
        if "PyTorch 2.6" in line or "WeightsUnpickler" in line:
            print("  ", line.strip().split(". ")[0])

# only for files you trust: weights_only=False runs arbitrary pickle code
loaded = torch.load(whole, weights_only=False)
print("loaded type:", type(loaded).__name__)

# %%
# a mismatched architecture fails loudly (strict=True by default)
try:
    nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)).load_state_dict(torch.load(path))
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
    print(str(e).splitlines()[1].strip())
tmpdir.cleanup()
