# /// example
# timeout = 180
# ///
# %%
import logging
import os
import tempfile
import warnings

import numpy as np
import onnxruntime as ort
import torch
from torch import nn

logging.getLogger("torch").setLevel(logging.ERROR)
warnings.filterwarnings("ignore", message=".*LeafSpec.*", category=FutureWarning)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10)).eval()
tmp = tempfile.TemporaryDirectory()


def export(name, **kwargs):
    path = os.path.join(tmp.name, name)
    torch.onnx.export(model, (torch.rand(4, 64),), path, dynamo=True, input_names=["x"], verbose=False, **kwargs)
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    print(name, "input shape:", session.get_inputs()[0].shape)
    return session


fixed = export("fixed.onnx")
x5 = torch.rand(5, 64)

# %% raises="InvalidArgument"
fixed.run(None, {"x": x5.numpy()})

# %%
dynamic = export("dynamic.onnx", dynamic_shapes=({0: "batch"},))
with torch.inference_mode():
    for n in (1, 5, 37):
        x = torch.rand(n, 64)
        (out,) = dynamic.run(None, {"x": x.numpy()})
        np.testing.assert_allclose(out, model(x).numpy(), rtol=1e-4, atol=1e-5)
        print(f"batch {n:2d}: output {out.shape}, max abs difference {np.abs(out - model(x).numpy()).max():.1e}")
tmp.cleanup()
