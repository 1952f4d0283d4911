# %%
import importlib.metadata

import numpy as np
import torch

a_np = np.array([[1.0, 2.0], [3.0, 4.0]])
a_t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print("NumPy   a @ a.T + 1:\n", a_np @ a_np.T + 1)
print("PyTorch a @ a.T + 1:\n", a_t @ a_t.T + 1)
print("column means  NumPy:", a_np.mean(axis=0), " PyTorch:", a_t.mean(dim=0))

# %%
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
b = a_t.to(device)  # zh: 有加速器（如 GPU）时，同样的代码就在它上面运行 | en: the same code runs on an accelerator (a GPU) when there is one
print("computed on:", b.device.type)
print("result:\n", b @ b.T + 1)

# %%
print("default float dtype  NumPy:", a_np.dtype, "  PyTorch:", a_t.dtype)
print("a_np.size (element count):", a_np.size, "  a_t.size() (shape):", a_t.size())
print("a tensor is an ndarray:", isinstance(a_t, np.ndarray))
deps = importlib.metadata.requires("torch") or []
print("numpy among torch's requirements:", any(d.lower().startswith("numpy") for d in deps))
