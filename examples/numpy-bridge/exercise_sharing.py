# %%
import numpy as np
import torch

a = np.arange(3.0)  # zh: float64 | en: float64

# zh: 预测：True 表示改动 a 之后这个张量也跟着变
# en: Prediction: True means the tensor sees a later change to a.
cases = {
    "torch.from_numpy(a)": (torch.from_numpy(a), True),
    "torch.as_tensor(a)": (torch.as_tensor(a), True),
    "torch.as_tensor(a, dtype=torch.float64)": (torch.as_tensor(a, dtype=torch.float64), True),
    "torch.as_tensor(a, dtype=torch.float32)": (torch.as_tensor(a, dtype=torch.float32), False),
    "torch.from_numpy(a).float()": (torch.from_numpy(a).float(), False),
    "torch.from_numpy(a).double()": (torch.from_numpy(a).double(), True),
    "torch.tensor(a)": (torch.tensor(a), False),
    "torch.from_numpy(a[::2])": (torch.from_numpy(a[::2]), True),
}
a[0] = 42.0
for code, (t, predicted) in cases.items():
    sees = t[0].item() == 42.0
    print(f"{code:40} sees a[0] = 42: {sees!s:5}  predicted {predicted}")
    assert sees == predicted
