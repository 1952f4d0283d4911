# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 10))
x = torch.rand(8, 64)

model.train()
a, b = model(x), model(x)
print("train mode, same input twice, equal outputs:", torch.equal(a, b))  # Dropout draws a new mask
# BatchNorm uses the statistics of the batch: sample 0's output depends on the others
model[3].eval()  # switch Dropout off to isolate BatchNorm
alone = model(x[:4])[0]
together = model(x)[0]
print("train mode, sample 0 in two batches, equal:", torch.allclose(alone, together))

# %%
model.eval()  # every submodule: Dropout off, BatchNorm uses running statistics
print("training flags:", [(type(m).__name__, m.training) for m in model])
a, b = model(x), model(x)
print("eval mode, same input twice, equal outputs:", torch.equal(a, b))
print("eval mode, sample 0 in two batches, equal:", torch.allclose(model(x[:4])[0], model(x)[0]))

# %%
# eval() changes how layers compute; it does NOT switch off autograd
out = model(x)
print("after eval(), out.requires_grad:", out.requires_grad)

# inference_mode() switches off autograd (like no_grad, and a little faster)
with torch.inference_mode():
    out = model(x)
print("inside inference_mode, out.requires_grad:", out.requires_grad, " is_inference:", out.is_inference())

# %% raises="RuntimeError"
# tensors made in inference mode can never join a graph later; use no_grad() if they must
loss = (model(x) * out).sum()
loss.backward()
