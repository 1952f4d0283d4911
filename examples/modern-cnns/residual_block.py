# %%
import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class BasicBlock(nn.Module):
    """conv3x3-BN-ReLU-conv3x3-BN, plus the shortcut, then ReLU (ResNet's basic block)."""

    def __init__(self, in_ch, out_ch, stride=1):
        super().__init__()
        # zh: 后面接 BatchNorm 的卷积不需要偏置：BN 会减去均值，再加上自己的 bias
        # en: A conv followed by BatchNorm needs no bias: BN subtracts the mean and adds its own bias.
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)
        self.shortcut = nn.Identity()
        if stride != 1 or in_ch != out_ch:
            # zh: 形状变了：1x1 卷积（投影捷径）把 x 变成同样的形状
            # en: The shape changes: a 1x1 conv (projection shortcut) brings x to the same shape.
            self.shortcut = nn.Sequential(nn.Conv2d(in_ch, out_ch, 1, stride=stride, bias=False), nn.BatchNorm2d(out_ch))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return torch.relu(out + self.shortcut(x))  # zh: 残差：F(x) + x | en: residual: F(x) + x


x = torch.randn(2, 16, 8, 8, device=device)
same = BasicBlock(16, 16).to(device)
down = BasicBlock(16, 32, stride=2).to(device)
print("same shape:", tuple(same(x).shape), " shortcut:", same.shortcut)
print("downsample:", tuple(down(x).shape), " shortcut:", down.shortcut)


def count(m):
    return sum(p.numel() for p in m.parameters())


print("parameters: same", count(same), " downsample", count(down), " of which shortcut", count(down.shortcut))

# %% raises="RuntimeError"
# zh: 没有投影捷径时，F(x) 是 (2, 32, 4, 4)，x 是 (2, 16, 8, 8)，加不起来
# en: Without a projection shortcut F(x) is (2, 32, 4, 4) and x is (2, 16, 8, 8): they cannot be added.
down.shortcut = nn.Identity()
down(x)

# %%
# zh: 把最后一个 BN 的 weight（gamma）初始化为 0：残差分支输出 0，整个块就是 relu(x)
# en: Initialise the last BN's weight (gamma) to 0: the residual branch outputs 0 and the block is relu(x).
block = BasicBlock(16, 16).to(device)
nn.init.zeros_(block.bn2.weight)
print("block(x) == relu(x):", torch.equal(block(x), torch.relu(x)))
