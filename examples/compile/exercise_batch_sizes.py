# %%
import os

os.environ["TORCH_LOGS_FORMAT"] = "%(name)s: %(message)s"  # zh: 见 recompiles.py | en: see recompiles.py

import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, TensorDataset  # noqa: E402

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
compiles = []


def counting_backend(gm, example_inputs):
    compiles.append(gm)
    return gm.forward


def step(xb):
    return model(xb)


def run(n_samples, mark_dynamic=False, drop_last=False, epochs=2):
    # zh: 训练两个轮次，只看前向：每个批量调用一次编译后的模型
    # en: Two epochs, forward passes only: the compiled model is called once per batch.
    torch._dynamo.reset()
    compiles.clear()
    compiled = torch.compile(step, backend=counting_backend)
    data = TensorDataset(torch.randn(n_samples, 8), torch.randn(n_samples, 1))
    loader = DataLoader(data, batch_size=32, drop_last=drop_last)
    sizes = []
    for _ in range(epochs):
        for xb, _yb in loader:
            xb = xb.to(device)
            if mark_dynamic:
                torch._dynamo.mark_dynamic(xb, 0)
            compiled(xb)
            sizes.append(len(xb))
    return sizes, len(compiles)


for n, kwargs in [(100, {}), (100, {"mark_dynamic": True}), (97, {})]:
    sizes, count = run(n, **kwargs)
    print(f"{n} samples {kwargs}: batch sizes {sizes[:len(sizes) // 2]} per epoch -> {count} compilation(s)")

# %%
# zh: 最后一个批量只有 1 个样本时，mark_dynamic 也免不了重新编译：大小 0 和 1 总是按具体数值编译
# en: With a last batch of 1 sample even mark_dynamic recompiles: sizes 0 and 1 are always compiled as constants.
torch._logging.set_logs(recompiles=True)
sizes, count = run(97, mark_dynamic=True, epochs=1)
torch._logging.set_logs()
print(f"97 samples, mark_dynamic: batch sizes {sizes} -> {count} compilations", flush=True)
for kwargs in [{"mark_dynamic": True, "drop_last": True}, {"drop_last": True}]:
    sizes, count = run(97, **kwargs)
    print(f"97 samples {kwargs}: batch sizes {sizes[:len(sizes) // 2]} per epoch -> {count} compilation(s)")
