# %%
import torch
from torch import nn

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
torch.manual_seed(0)
X, Y = torch.randn(256, 8, device=device), torch.randn(256, 1, device=device)


def train(peek):
    torch.manual_seed(1)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(60):
        idx = torch.randint(0, len(X), (32,), device=device)  # zh: 随机小批量 | en: a random mini-batch
        loss = nn.functional.mse_loss(model(X[idx]), Y[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 20 == 0:
            peek(model)
    return torch.cat([p.detach().flatten() for p in model.parameters()])


def no_peek(model):
    pass


def peek_random_subset(model):
    # zh: 在随机抽取的 64 个样本上看一眼损失：这会消耗全局生成器
    # en: A look at the loss on 64 random samples: this consumes the global generator.
    idx = torch.randperm(len(X), device=device)[:64]
    with torch.no_grad():
        model.eval()
        nn.functional.mse_loss(model(X[idx]), Y[idx])
        model.train()


def peek_forked(model):
    # zh: fork_rng 保存进入时 CPU 和当前加速器的生成器状态，退出时恢复：里面用掉的随机数不影响外面
    # en: fork_rng saves the CPU and current accelerator generator states on entry, restores them on exit: draws inside do not leak out.
    with torch.random.fork_rng():
        peek_random_subset(model)


base = train(no_peek)
print("with the random peek, same weights as without?  ", torch.equal(train(peek_random_subset), base))
print("peek inside fork_rng, same weights as without?  ", torch.equal(train(peek_forked), base))
