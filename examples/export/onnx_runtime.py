# /// example
# timeout = 180
# ///
# %%
import logging
import os
import tempfile
import warnings

import numpy as np
import torch
from sklearn.datasets import load_digits
from torch import nn

logging.getLogger("torch").setLevel(logging.ERROR)  # zh: 导出器每跳过一个可选算子就打印一行日志 | en: the exporter logs a line per optional op it skips
warnings.filterwarnings("ignore", message=".*LeafSpec.*", category=FutureWarning)  # zh: 在 torch 内部抛出 | en: raised inside torch
torch.manual_seed(0)
torch.set_num_threads(1)
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)
y = torch.tensor(digits.target)
model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
    nn.Conv2d(8, 16, kernel_size=3, padding=1), nn.ReLU(),
    nn.MaxPool2d(2), nn.Flatten(),
    nn.Linear(16 * 4 * 4, 64), nn.ReLU(),
    nn.Linear(64, 10),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for _ in range(5):
    for i in torch.randperm(len(X)).split(64):
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(X[i]), y[i]).backward()
        optimizer.step()
model.eval()
print("training accuracy:", round((model(X).argmax(1) == y).float().mean().item(), 3))

# %%
tmp = tempfile.TemporaryDirectory()
path = os.path.join(tmp.name, "digits_cnn.onnx")
onnx_program = torch.onnx.export(
    model, (X[:4],), path,
    dynamo=True,  # zh: 经由 torch.export | en: goes through torch.export
    input_names=["image"], output_names=["logits"],
    dynamic_shapes=({0: "batch"},),
    verbose=False,
)
print(type(onnx_program).__name__, "written:", os.path.basename(path), f"({os.path.getsize(path) // 1024} KiB)")

# %%
import onnx

proto = onnx.load(path)
onnx.checker.check_model(proto)
print("opset:", proto.opset_import[0].version)
print("nodes:", [node.op_type for node in proto.graph.node])
print("initializers:", [(t.name, tuple(t.dims)) for t in proto.graph.initializer])

# %%
import onnxruntime as ort

session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
print("inputs:", [(i.name, i.shape, i.type) for i in session.get_inputs()])
print("outputs:", [(o.name, o.shape, o.type) for o in session.get_outputs()])

images = X[:100]
(ort_logits,) = session.run(["logits"], {"image": images.numpy()})
with torch.inference_mode():
    torch_logits = model(images).numpy()
print("max abs difference:", np.abs(ort_logits - torch_logits).max())
np.testing.assert_allclose(ort_logits, torch_logits, rtol=1e-4, atol=1e-5)
print("same predictions:", (ort_logits.argmax(1) == torch_logits.argmax(1)).all())
tmp.cleanup()
