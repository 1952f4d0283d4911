# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 10))
x = torch.rand(8, 64)

model.train()
a, b = model(x), model(x)
print("train mode, same input twice, equal outputs:", torch.equal(a, b))  # zh: Dropout 每次抽一个新的掩码 | en: Dropout draws a new mask
# zh: BatchNorm 用批量的统计量：样本 0 的输出取决于其他样本
# en: BatchNorm uses the statistics of the batch: sample 0's output depends on the others
model[3].eval()  # zh: 关掉 Dropout，单独看 BatchNorm | en: switch Dropout off to isolate BatchNorm
alone = model(x[:4])[0]
together = model(x)[0]
print("train mode, sample 0 in two batches, equal:", torch.allclose(alone, together))

# %%
model.eval()  # zh: 对每个子模块生效：Dropout 关闭，BatchNorm 用滑动统计量 | en: every submodule: Dropout off, BatchNorm uses running statistics
print("training flags:", [(type(m).__name__, m.training) for m in model])
a, b = model(x), model(x)
print("eval mode, same input twice, equal outputs:", torch.equal(a, b))
print("eval mode, sample 0 in two batches, equal:", torch.allclose(model(x[:4])[0], model(x)[0]))

# %%
# zh: eval() 改变层的计算方式，但不会关闭自动求导
# en: eval() changes how layers compute; it does NOT switch off autograd
out = model(x)
print("after eval(), out.requires_grad:", out.requires_grad)

# zh: inference_mode() 关闭自动求导（和 no_grad 类似，还更快一点）
# en: inference_mode() switches off autograd (like no_grad, and a little faster)
with torch.inference_mode():
    out = model(x)
print("inside inference_mode, out.requires_grad:", out.requires_grad, " is_inference:", out.is_inference())

# %% raises="RuntimeError"
# zh: 推理模式下创建的张量以后不能再进入计算图；需要的话用 no_grad()
# en: tensors made in inference mode can never join a graph later; use no_grad() if they must
loss = (model(x) * out).sum()
loss.backward()
