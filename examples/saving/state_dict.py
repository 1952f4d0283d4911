# %%
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))

sd = model.state_dict()
print("type:", type(sd).__name__)
for key, value in sd.items():
    print(f"{key:28s} {tuple(value.shape)}")

# %%
# zh: 缓冲区（BatchNorm 的滑动统计量）也会保存，尽管它们不是参数
# en: Buffers (BatchNorm running statistics) are saved too, although they are not parameters.
print("parameters:", len(list(model.parameters())), " state_dict entries:", len(sd))
print("requires_grad in state_dict:", sd["0.weight"].requires_grad)  # zh: 已分离的张量 | en: detached tensors
print("shares memory with the model:", sd["0.weight"].data_ptr() == model[0].weight.data_ptr())

# %%
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
print("before step:", optimizer.state_dict()["state"])

loss = model(torch.randn(8, 3)).pow(2).mean()
optimizer.zero_grad()
loss.backward()
optimizer.step()

osd = optimizer.state_dict()
print("keys:", list(osd.keys()))
print("state entries:", len(osd["state"]), " per entry:", list(osd["state"][0].keys()))
print("param_groups[0]['params']:", osd["param_groups"][0]["params"])  # zh: 下标，不是张量 | en: indices, not tensors
print("lr:", osd["param_groups"][0]["lr"], " momentum:", osd["param_groups"][0]["momentum"])
