# %%
import numpy as np
import torch

data = [[1.0, 2.0, 3.0], [4.0, 6.0, 11.0]]
a_np = np.array(data)
a_t = torch.tensor(data)

# zh: 同一个 "std"，两个库的默认约定不同
# en: The same "std", two different default conventions.
print("NumPy   a.std(axis=0):", a_np.std(axis=0))
print("PyTorch a.std(dim=0): ", a_t.std(dim=0))

# %%
# zh: NumPy 默认 ddof=0（总体标准差），PyTorch 默认 correction=1（样本标准差）
# en: NumPy defaults to ddof=0 (population), PyTorch to correction=1 (sample).
same_as_numpy = a_t.std(dim=0, correction=0)
same_as_torch = a_np.std(axis=0, ddof=1)
print("torch, correction=0:", same_as_numpy)
print("numpy, ddof=1:      ", same_as_torch)
assert np.allclose(same_as_numpy.numpy(), a_np.std(axis=0))
assert np.allclose(a_t.std(dim=0).numpy(), same_as_torch)

# %%
# zh: 还有 dtype：两边都按各自的默认浮点类型计算
# en: And the dtype: each library computes in its own default float type.
print("dtypes:", a_np.std(axis=0).dtype, a_t.std(dim=0).dtype)
