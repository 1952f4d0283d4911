# %%
import copy
import io
import logging

# zh: torchao 导入时会记录几行日志：它为别的 GPU 编译的扩展（.so）加载失败，以及 torch 的 pytree
# zh: 关于 register_constant 的弃用提示。与本例无关，在导入之前把这两个日志器调到 ERROR
# en: On import torchao logs a few lines: its extensions (.so) built for other GPUs fail to load, and
# en: torch's pytree notes that register_constant is deprecated. Unrelated here: raise both loggers to ERROR first.
logging.getLogger("torchao").setLevel(logging.ERROR)
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig, quantize_

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.data / 16.0, dtype=torch.float32)  # zh: (1797, 64) | en: (1797, 64)
y = torch.tensor(digits.target)
X_train, X_test, y_train, y_test = (t.to(device) for t in train_test_split(X, y, test_size=0.25, random_state=0))

model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
g = torch.Generator().manual_seed(0)
for _ in range(300):
    idx = torch.randint(0, len(X_train), (128,), generator=g).to(device)
    loss = nn.functional.cross_entropy(model(X_train[idx]), y_train[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
model.eval()


@torch.no_grad()
def accuracy(m):
    return (m(X_test).argmax(dim=1) == y_test).float().mean().item()


def saved_bytes(m):  # zh: torch.save(state_dict) 写出的字节数 | en: bytes written by torch.save(state_dict)
    buf = io.BytesIO()
    torch.save(m.state_dict(), buf)
    return buf.tell()


with torch.no_grad():
    logits_fp32 = model(X_test)
print(f"float32: test accuracy {accuracy(model):.4f}, saved size {saved_bytes(model)} bytes")

# %%
# zh: 只量化权重：quantize_ 就地把每个 nn.Linear 的权重换成 int8 张量
# en: Weight-only: quantize_ replaces the weight of every nn.Linear, in place, with an int8 tensor.
model_w8 = copy.deepcopy(model)
quantize_(model_w8, Int8WeightOnlyConfig())
w = model_w8[0].weight
print(model_w8[0])
print("qdata:", w.qdata.dtype, tuple(w.qdata.shape), " scale:", w.scale.dtype, tuple(w.scale.shape))

# %%
# zh: 权重 int8，激活在运行时按 token 动态量化成 int8
# en: int8 weights, and activations quantized to int8 per token at run time.
model_w8a8 = copy.deepcopy(model)
quantize_(model_w8a8, Int8DynamicActivationInt8WeightConfig())
print("activation quantization:", model_w8a8[0].weight.act_quant_kwargs)

base = saved_bytes(model)
print("model              accuracy   bytes   size ratio   max |logit diff|   same predictions")
for name, m in [("float32", model), ("int8 weight-only", model_w8), ("int8 dynamic", model_w8a8)]:
    with torch.no_grad():
        logits = m(X_test)
    same = (logits.argmax(dim=1) == logits_fp32.argmax(dim=1)).float().mean().item()
    print(f"{name:17s}  {accuracy(m):8.4f}   {saved_bytes(m):5d}   {saved_bytes(m) / base:10.3f}"
          f"   {(logits - logits_fp32).abs().max().item():16.4f}   {same:16.4f}")

# zh: 为什么不正好是 1/4：偏置和每行的 scale 仍是 float32，文件本身也有开销
# en: Why not exactly 1/4: biases and per-row scales stay float32, and the file has overhead of its own.
linears = [m for m in model_w8 if isinstance(m, nn.Linear)]
int8_bytes = sum(m.weight.qdata.nbytes for m in linears)
float_bytes = sum(m.weight.scale.nbytes + m.bias.nbytes for m in linears)
tensor_bytes = sum(p.nbytes for p in model.parameters())
print(f"float32 tensors: {tensor_bytes} bytes;  int8 weights {int8_bytes} + float32 scales and biases {float_bytes}"
      f" = {int8_bytes + float_bytes} bytes, ratio {(int8_bytes + float_bytes) / tensor_bytes:.3f}")

# %%
# zh: torchao 的做法和手算一样，只差两处细节：scale = max|w| / 127.5，量化时乘以 1 / scale
# en: torchao does what we did by hand, with two details: scale = max|w| / 127.5, and it multiplies by 1 / scale.
W = model[0].weight.detach()
scale = W.abs().amax(dim=1, keepdim=True) / 127.5
q = torch.round(W * (1.0 / scale)).clamp(-128, 127).to(torch.int8)
print("same scales:", torch.equal(scale, w.scale), " same int8 values:", torch.equal(q, w.qdata))
q_div = torch.round(W / scale).clamp(-128, 127).to(torch.int8)  # zh: 改成除法 | en: dividing instead
print("values that differ when dividing by scale:", (q_div != w.qdata).sum().item(), "of", q.numel())
print("int8 range used:", w.qdata.min().item(), "to", w.qdata.max().item())

# %% warns=["DeprecationWarning", "UserWarning"]
# zh: 旧的 API：torch.ao.quantization 已弃用，torchao 是它的接替者
# en: The old API: torch.ao.quantization is deprecated, and torchao is its successor.
from torch.ao.quantization import quantize_dynamic

old = quantize_dynamic(copy.deepcopy(model).cpu(), {nn.Linear}, dtype=torch.qint8)
print(old[0])
