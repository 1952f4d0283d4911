# %%
import torch
from torch import nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
layer = nn.Linear(3, 2)
optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)

new_weight = torch.ones(2, 3)
layer.weight = nn.Parameter(new_weight)
print("layer.weight:", layer.weight)
print("is a Parameter:", isinstance(layer.weight, nn.Parameter))
print("out:", layer(torch.tensor([1.0, 2.0, 3.0])))

# %%
# the optimizer still holds the OLD weight object
print("optimizer sees new weight:", optimizer.param_groups[0]["params"][0] is layer.weight)

# alternative: copy in place, keeping the same Parameter object
layer2 = nn.Linear(3, 2)
optimizer2 = torch.optim.SGD(layer2.parameters(), lr=0.1)
with torch.no_grad():
    layer2.weight.copy_(new_weight)
print("layer2.weight:", layer2.weight)
print("optimizer2 sees new weight:", optimizer2.param_groups[0]["params"][0] is layer2.weight)

# %%
layer = layer.to(device)  # moves every parameter and buffer, in place for modules
print("device:", layer.weight.device)
print("out:", layer(torch.ones(1, 3, device=device)))

# %% raises="TypeError"
layer.weight = torch.zeros(2, 3, device=device)  # a plain tensor, not a Parameter
