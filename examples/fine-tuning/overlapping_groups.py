# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class ResNetLike(nn.Module):
    # zh: 像 torchvision 的 ResNet 一样，层都挂在模型上，输出头叫 fc，没有单独的 backbone 属性
    # en: Like torchvision's ResNet, the layers hang off the model itself, the head is called fc, and there is
    # en: no separate backbone attribute.
    def __init__(self, num_classes=5):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.conv2(torch.relu(self.bn1(self.conv1(x))))
        return self.fc(self.pool(torch.relu(x)).flatten(1))


model = ResNetLike().to(device)
print("parameter tensors in the model:", len(list(model.parameters())))

# %% raises="ValueError"
# zh: 想给输出头更大的学习率，于是先放进整个模型，再把 fc 单独列一组：fc 的参数出现了两次
# en: Wanting a larger learning rate for the head, we pass the whole model, then fc again as a group of its own:
# en: fc's parameters appear twice.
torch.optim.Adam([
    {"params": model.parameters(), "lr": 1e-4},
    {"params": model.fc.parameters(), "lr": 1e-2},
])

# %%
# zh: 改法：把参数分开，每个参数只进一组；按名字把 fc 的参数挑出来
# en: The fix: split the parameters so that each one is in exactly one group; pick fc's out by name.
head = [p for name, p in model.named_parameters() if name.startswith("fc.")]
body = [p for name, p in model.named_parameters() if not name.startswith("fc.")]
optimizer = torch.optim.Adam([
    {"params": body, "lr": 1e-4},
    {"params": head, "lr": 1e-2},
])
for i, group in enumerate(optimizer.param_groups):
    print(f"group {i}: lr={group['lr']}, {len(group['params'])} tensors")
print("tensors in the groups:", sum(len(g["params"]) for g in optimizer.param_groups))
