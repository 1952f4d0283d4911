# %%
import os

# zh: PyTorch 的 C++ 部分只报告错误（见本章第一个示例）；导入 torch 之前设置
# en: PyTorch's C++ side reports errors only (see the chapter's first example); set before importing torch.
os.environ["TORCH_CPP_LOG_LEVEL"] = "ERROR"

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

# zh: 这个错误与通信无关：一个进程（world_size 1）就够了，进程组建在当前进程里，键值存储放在内存中
# en: This error has nothing to do with communication: one process (world_size 1) is enough. The group lives in
# en: this process, with an in-memory key-value store.
dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)


class Net(nn.Module):
    def __init__(self, with_aux=True):
        super().__init__()
        self.body = nn.Linear(3, 4)
        self.out = nn.Linear(4, 1)
        # zh: 定义了、却没有在 forward 里用到的层（比如改模型时留下的辅助输出头）
        # en: A layer that is defined but not used in forward (say, an auxiliary head left over from an edit).
        self.aux = nn.Linear(4, 1) if with_aux else None

    def forward(self, x):
        return self.out(torch.relu(self.body(x)))


g = torch.Generator().manual_seed(0)
x, y = torch.randn(8, 3, generator=g), torch.randn(8, 1, generator=g)
loss_fn = nn.MSELoss()

torch.manual_seed(0)
ddp = DDP(Net())
loss_fn(ddp(x), y).backward()  # zh: 第一次迭代照常完成 | en: the first iteration completes as usual
print("iteration 1 done; aux.weight.grad:", ddp.module.aux.weight.grad)

# %% raises="RuntimeError"
# zh: 第二次前向传播时，DDP 发现上一次迭代还有参数没等到梯度
# en: At the second forward pass, DDP finds that some parameters of the previous iteration never got a gradient.
loss_fn(ddp(x), y).backward()

# %%
# zh: 报错里的下标就是 parameters() 里的位置：对应的名字
# en: The indices in the error are positions in parameters(): here are their names.
for i, (name, p) in enumerate(ddp.module.named_parameters()):
    print(f"parameter {i}: {name:12s} grad is None: {p.grad is None}")


def train(model, steps=3):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(round(loss.item(), 4))
    return losses


# %%
# zh: 改法一：告诉 DDP 有的参数可能用不到，它每次迭代都会找出这些参数
# en: Fix 1: tell DDP that some parameters may go unused, and it looks for them in every iteration.
torch.manual_seed(0)
print("find_unused_parameters=True, losses:", train(DDP(Net(), find_unused_parameters=True)))

# zh: 改法二（更好）：删掉用不到的层，DDP 保持默认设置
# en: Fix 2 (better): delete the unused layer and keep DDP's defaults.
torch.manual_seed(0)
print("without the unused layer, losses:   ", train(DDP(Net(with_aux=False))))
dist.destroy_process_group()
