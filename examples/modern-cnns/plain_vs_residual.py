# %%
import torch
from sklearn.datasets import load_digits
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
if device == "cpu":
    torch.set_num_threads(1)  # zh: 模型很小：多开 CPU 线程得不偿失 | en: tiny model: extra CPU threads cost more than they save
digits = load_digits()
X = torch.tensor(digits.images / 16.0, dtype=torch.float32).unsqueeze(1)  # zh: (1797, 1, 8, 8) | en: (1797, 1, 8, 8)
y = torch.tensor(digits.target)
# zh: 这里只比较训练损失（优化得好不好），所以全部图片都用来训练
# en: Only the training loss (how well each net optimises) is compared here, so every image is for training.
X_train, y_train = X.to(device), y.to(device)


class Block(nn.Module):
    # zh: 两个 3x3 卷积；residual=True 时再加上捷径，其余完全相同
    # en: Two 3x3 convs; residual=True adds the shortcut, everything else is identical.
    def __init__(self, c, residual, bn):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=not bn)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=not bn)
        self.bn1 = nn.BatchNorm2d(c) if bn else nn.Identity()
        self.bn2 = nn.BatchNorm2d(c) if bn else nn.Identity()
        self.residual = residual

    def forward(self, x):
        out = self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x)))))
        return torch.relu(out + x if self.residual else out)


def make_net(blocks, residual, bn=True, c=8):
    stem = [nn.Conv2d(1, c, 3, padding=1, bias=not bn), nn.BatchNorm2d(c) if bn else nn.Identity(), nn.ReLU()]
    head = [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 10)]
    return nn.Sequential(*stem, *[Block(c, residual, bn) for _ in range(blocks)], *head).to(device)


# zh: 初始化时第一层卷积权重的梯度范数：一个批量，一次反向传播
# en: The gradient norm of the first conv's weight at initialisation: one batch, one backward pass.
print("conv layers   plain, no BN   residual, no BN   plain, BN   residual, BN")
for blocks in (1, 4, 16):
    norms = []
    for bn in (False, True):
        for residual in (False, True):
            torch.manual_seed(0)
            net = make_net(blocks, residual, bn)
            nn.functional.cross_entropy(net(X_train[:64]), y_train[:64]).backward()
            norms.append(net[0].weight.grad.norm().item())
    print(f"{2 * blocks + 1:11d}   {norms[0]:12.1e}   {norms[1]:15.1e}   {norms[2]:9.1e}   {norms[3]:12.1e}")

# %%
# zh: 同样的数据、同样的步数、同样的优化器，都带 BatchNorm
# en: Same data, same steps, same optimizer, all with BatchNorm.
runs = {"plain, 17 conv layers": (8, False), "residual, 17 conv layers": (8, True)}
curves = {}
for name, (blocks, residual) in runs.items():
    torch.manual_seed(0)
    net = make_net(blocks, residual)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(0)  # zh: 两个模型看到同样的批量 | en: both models see the same batches
    losses = []
    for _ in range(100):
        idx = torch.randint(0, len(X_train), (32,), generator=g).to(device)
        loss = nn.functional.cross_entropy(net(X_train[idx]), y_train[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    curves[name] = losses
    print(f"{name:25s} mean loss, first 10 steps {sum(losses[:10]) / 10:.3f}, last 20 steps {sum(losses[-20:]) / 20:.3f}")

# %% caption="Training loss of plain and residual CNNs on the 8x8 digits (moving average over 10 steps)" caption_zh="普通 CNN 和残差 CNN 在 8×8 数字上的训练损失（10 步的移动平均）"
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 3.2))
for name, losses in curves.items():
    smooth = torch.tensor(losses).unfold(0, 10, 1).mean(dim=1)
    ax.plot(range(10, len(losses) + 1), smooth, label=name)
ax.set_xlabel("step")
ax.set_ylabel("training loss")
ax.legend()
plt.tight_layout()
plt.show()
