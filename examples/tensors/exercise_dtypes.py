# %%
import numpy as np
import torch

# zh: 先写下预测，再逐个核对
# en: Write the predictions down first, then check each one.
predictions = {
    "torch.tensor([1, 2.5])": (torch.tensor([1, 2.5]), torch.float32),
    "torch.tensor([True, 2])": (torch.tensor([True, 2]), torch.int64),
    "torch.tensor(3)": (torch.tensor(3), torch.int64),
    "torch.zeros(2)": (torch.zeros(2), torch.float32),
    "torch.arange(3)": (torch.arange(3), torch.int64),
    "torch.arange(3.0)": (torch.arange(3.0), torch.float32),
    "torch.full((2,), 7)": (torch.full((2,), 7), torch.int64),
    "torch.Tensor([1, 2])": (torch.Tensor([1, 2]), torch.float32),
    "torch.from_numpy(np.ones(2))": (torch.from_numpy(np.ones(2)), torch.float64),
    "torch.tensor(np.ones(2, dtype=np.float32))": (torch.tensor(np.ones(2, dtype=np.float32)), torch.float32),
}
for code, (t, predicted) in predictions.items():
    mark = "ok" if t.dtype == predicted else "WRONG"
    print(f"{code:44} -> {str(t.dtype):14} predicted {str(predicted):14} {mark}")
    assert t.dtype == predicted
