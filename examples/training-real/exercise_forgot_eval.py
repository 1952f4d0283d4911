# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 10))
x = torch.rand(1, 64)  # zh: 一次只预测一个样本 | en: predicting one sample at a time

model.eval()
with torch.inference_mode():
    print("eval mode, batch of one:", model(x).argmax(dim=1).tolist())

# %% raises="ValueError"
model.train()  # zh: 忘了 model.eval()：BatchNorm 需要一个批量才能算统计量 | en: forgot model.eval(): BatchNorm needs a batch to compute its statistics
with torch.inference_mode():
    model(x)
