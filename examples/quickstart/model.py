# %%
import torch
from sklearn.datasets import load_digits
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print("device:", device)


# zh: 一个模型就是 nn.Module 的子类：在 __init__ 里建层，在 forward 里写计算
# en: A model is a subclass of nn.Module: build the layers in __init__, write the computation in forward.
class DigitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(64, 128)  # zh: 64 个像素 → 128 个隐藏单元 | en: 64 pixels → 128 hidden units
        self.out = nn.Linear(128, 10)  # zh: 10 个类别各一个分数 | en: one score per class, 10 classes

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x)))


model = DigitNet().to(device)  # zh: 参数放到选定的设备上 | en: parameters go to the chosen device
print(model)
for name, p in model.named_parameters():
    print(f"{name:14s} {tuple(p.shape)}")
print("parameters:", sum(p.numel() for p in model.parameters()))

# %%
digits = load_digits()
X = torch.tensor(digits.data, dtype=torch.float32).to(device) / 16.0
y = torch.tensor(digits.target).to(device)

# zh: 前向传播：输入 (批量, 64)，输出 (批量, 10) 的 logits（未归一化的分数）
# en: Forward pass: input (batch, 64), output (batch, 10) logits (unnormalised scores).
logits = model(X[:5])
print("logits:", tuple(logits.shape))
print("predicted:", logits.argmax(dim=1).tolist(), " true:", y[:5].tolist())
# zh: 还没训练：准确率只是碰运气
# en: Untrained, so accuracy is luck.
print(f"untrained accuracy on all {len(y)} images: {(model(X).argmax(dim=1) == y).float().mean().item():.3f}")
