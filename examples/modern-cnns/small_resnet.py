# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class BasicBlock(nn.Module):
    def __init__(self, in_ch, out_ch, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)
        self.shortcut = nn.Identity()
        if stride != 1 or in_ch != out_ch:
            self.shortcut = nn.Sequential(nn.Conv2d(in_ch, out_ch, 1, stride=stride, bias=False), nn.BatchNorm2d(out_ch))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    # zh: 起始层（stem）、三个阶段（每个阶段开头把尺寸减半、通道加倍）、全局平均池化、分类头
    # en: A stem, three stages (each but the first halves the size and doubles the channels), global average pooling, a head.
    def __init__(self, in_ch=1, widths=(16, 32, 64), blocks_per_stage=2, num_classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(in_ch, widths[0], 3, padding=1, bias=False), nn.BatchNorm2d(widths[0]), nn.ReLU())
        stages, ch = [], widths[0]
        for i, w in enumerate(widths):
            stride = 1 if i == 0 else 2
            blocks = [BasicBlock(ch, w, stride)] + [BasicBlock(w, w) for _ in range(blocks_per_stage - 1)]
            stages.append(nn.Sequential(*blocks))
            ch = w
        self.stages = nn.Sequential(*stages)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(ch, num_classes))

    def forward(self, x):
        return self.head(self.stages(self.stem(x)))


model = ResNet().to(device)
x = torch.randn(4, 1, 8, 8, device=device)  # zh: 一批 8x8 的单通道图片 | en: a batch of 8x8 single-channel images
h = model.stem(x)
print(f"{'stem':8s} {tuple(h.shape)}")
for i, stage in enumerate(model.stages):
    h = stage(h)
    print(f"stage {i + 1:<2d} {tuple(h.shape)}")
print(f"{'head':8s} {tuple(model.head(h).shape)}")

# %%
def count(m):
    return sum(p.numel() for p in m.parameters())


print("parameters per part:")
for name, part in [("stem", model.stem)] + [(f"stage {i + 1}", s) for i, s in enumerate(model.stages)] + [("head", model.head)]:
    print(f"  {name:8s} {count(part):7d}  {count(part) / count(model):6.1%}")
print("total   ", count(model))
convs = [m for m in model.modules() if isinstance(m, nn.Conv2d) and m.kernel_size == (3, 3)]
print("3x3 conv layers:", len(convs), " + linear layer: 1")
# zh: 全局平均池化让网络接受任意大小的输入
# en: Global average pooling lets the network take inputs of any size.
print("32x32 input ->", tuple(model(torch.randn(2, 1, 32, 32, device=device)).shape))
