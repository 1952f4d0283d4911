# %%
import numpy as np
import torch

rows = [[1.0, 2.0], [3.0, 4.0]]  # zh: 一个 Python 列表，不是 NumPy 数组 | en: a Python list, not a NumPy array

# %% raises="TypeError"
# zh: from_numpy 只接受 np.ndarray：它要共享数组的内存，而列表没有这样一块内存
# en: from_numpy takes only an np.ndarray: it shares the array's memory, and a list has no such buffer
torch.from_numpy(rows)

# %%
# zh: 列表直接交给 torch.tensor 或 torch.as_tensor：两者都会复制，dtype 用 PyTorch 的默认值
# en: Give the list to torch.tensor or torch.as_tensor: both copy it, and the dtype is PyTorch's default.
print("torch.tensor(rows):   ", torch.tensor(rows).dtype)
print("torch.as_tensor(rows):", torch.as_tensor(rows).dtype)
# zh: 先经过 np.array 也行，但 dtype 是 NumPy 的默认值 float64
# en: Going through np.array works too, but the dtype is NumPy's default, float64.
print("torch.from_numpy(np.array(rows)):", torch.from_numpy(np.array(rows)).dtype)
