# %%
import numpy as np
import torch
from torch.distributions import Categorical

torch.manual_seed(0)
np.random.seed(0)
pay = np.array([0.2, 0.5, 0.8, 0.3, 0.6])
logits = torch.zeros(5, requires_grad=True)
optimizer = torch.optim.Adam([logits], lr=0.05)

for step in range(200):
    probs = torch.softmax(logits, dim=0)
    arms = np.random.choice(5, size=32, p=probs.detach().numpy())  # zh: 采样不经过自动求导 | en: sampling outside autograd
    reward = torch.tensor(np.random.rand(32) < pay[arms], dtype=torch.float32)
    advantage = reward - (reward.sum() - reward) / 31  # zh: 留一法基线，和正文一样 | en: the leave-one-out baseline, as in the text
    arms = torch.from_numpy(arms)
    log_probs = torch.log_softmax(logits, dim=0).expand(32, 5)  # zh: 每次拉杆一行 | en: one row per pull
    taken = log_probs.gather(1, arms.unsqueeze(1)).squeeze(1)

    if step == 0:  # zh: 用 Categorical.log_prob 算同样的损失 | en: the same loss through Categorical.log_prob
        check = -(Categorical(logits=logits).log_prob(arms) * advantage).mean()
        (g1,) = torch.autograd.grad(check, logits)
    loss = -(taken * advantage).mean()
    optimizer.zero_grad()
    loss.backward()
    if step == 0:
        torch.testing.assert_close(logits.grad, g1)
        print("step 0: gather gives the same gradient as Categorical.log_prob")
    optimizer.step()

print("final policy:", torch.softmax(logits, dim=0).detach().numpy().round(3))
