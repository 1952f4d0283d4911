# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
model = nn.Sequential(
    nn.Conv2d(1, 8, kernel_size=3, padding=1), nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(8, 16, kernel_size=3), nn.ReLU(),
    nn.Flatten(),
    nn.Linear(16 * 2 * 2, 10),
).to(device)

shapes = []


def record(name):
    def hook(module, inputs, output):
        shapes.append((name, type(module).__name__, tuple(output.shape)))
    return hook


# zh: named_modules() 也包括模型本身（名字为 ""），这里只挂在叶子模块上
# en: named_modules() includes the model itself (name ""): hook only the leaf modules.
handles = [m.register_forward_hook(record(name))
           for name, m in model.named_modules() if not list(m.children())]
out = model(torch.randn(4, 1, 8, 8, device=device))
for h in handles:
    h.remove()
for name, kind, shape in shapes:
    print(f"{name:>2} {kind:9} -> {shape}")

# %%
# zh: 按形状公式手算：padding=1 的 3x3 卷积不改变大小，池化减半，不加 padding 的 3x3 卷积减 2
# en: By the shape formulas: a 3x3 conv with padding=1 keeps the size, pooling halves it, a 3x3 conv without padding takes 2 off.
expected = [(4, 8, 8, 8), (4, 8, 8, 8), (4, 8, 4, 4), (4, 16, 2, 2), (4, 16, 2, 2), (4, 64), (4, 10)]
assert [s for _, _, s in shapes] == expected
assert out.shape == (4, 10)
print("all shapes as computed by hand")

# %%
# zh: 摘掉之后再跑一次，列表不再增长
# en: After remove(), another forward pass adds nothing.
before = len(shapes)
model(torch.randn(2, 1, 8, 8, device=device))
print("new entries after remove():", len(shapes) - before)
