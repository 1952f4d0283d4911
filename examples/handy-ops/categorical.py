# %%
import torch
from torch.distributions import Categorical

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
probs = torch.tensor([0.1, 0.2, 0.3, 0.4], device=device)
dist = Categorical(probs=probs)
actions = dist.sample((8,))
print("8 samples:", actions)
print("log_prob(actions):", dist.log_prob(actions))
print("log(probs[actions]):", probs[actions].log())
print("entropy:", dist.entropy())

# %%
# zh: 一批分布（每行一个）；没有归一化的权重会按行缩放
# en: A batch of distributions (one per row); unnormalised weights are rescaled.
batch = Categorical(probs=torch.tensor([[1.0, 1.0, 2.0],
                                        [0.0, 5.0, 5.0]], device=device))
print("normalised probs:\n", batch.probs)
a = batch.sample()
print("one sample per row:", a, "log_prob:", batch.log_prob(a))
print("from logits, same probs:", Categorical(logits=batch.logits).probs[0])

# %% caption="Categorical probabilities against sampled frequencies" caption_zh="类别分布的概率和采样得到的频率"
import matplotlib.pyplot as plt

n = 10_000
counts = torch.bincount(dist.sample((n,)), minlength=4).cpu()
x = torch.arange(4)
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.bar(x - 0.2, probs.cpu(), width=0.4, label="probs")
ax.bar(x + 0.2, counts / n, width=0.4, label=f"sample frequency (n={n})")
ax.set_xticks(x)
ax.set_xlabel("category")
ax.set_ylabel("probability")
ax.legend()
fig.tight_layout()
plt.show()

# %% raises="AttributeError"
dist = torch.distributions.Categorial(probs=probs)  # zh: 笔记里的拼写 | en: the notes' spelling
