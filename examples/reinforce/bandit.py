# %%
import numpy as np
import torch
from torch.distributions import Categorical

# zh: 5 臂老虎机：每个臂以各自的概率给出奖励 1，智能体不知道这些概率
# en: a 5-armed bandit: each arm pays 1 with its own probability, unknown to the agent
pay = torch.tensor([0.2, 0.5, 0.8, 0.3, 0.6])


def train(sign, steps=200, batch=32):
    torch.manual_seed(0)
    logits = torch.zeros(5, requires_grad=True)  # zh: 策略：每个臂一个 logit | en: the policy: one logit per arm
    optimizer = torch.optim.Adam([logits], lr=0.05)
    rewards, best, losses = [], [], []
    for _ in range(steps):
        dist = Categorical(logits=logits)
        arms = dist.sample((batch,))
        reward = torch.bernoulli(pay[arms])
        # zh: 基线：与同一批里其余 N-1 次拉杆的平均奖励相比，是好还是差
        # en: a baseline: better or worse than the mean reward of the other N-1 pulls in the batch
        advantage = reward - (reward.sum() - reward) / (batch - 1)
        # zh: 对 E[reward] 做梯度上升，等于对它的相反数做梯度下降
        # en: gradient ASCENT on E[reward] = gradient descent on its negative
        loss = sign * -(dist.log_prob(arms) * advantage).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        rewards.append(reward.mean().item())
        best.append(dist.probs[2].item())
        losses.append(loss.item())
    return rewards, best, losses


rewards, best, losses = train(sign=1)
wrong_rewards, wrong_best, wrong_losses = train(sign=-1)  # zh: 忘了负号 | en: forgot the minus sign
print(f"minimise -log_prob*A: mean reward, last 20 steps {np.mean(rewards[-20:]):.3f}, P(best arm) {best[-1]:.3f}")
print(f"minimise +log_prob*A: mean reward, last 20 steps {np.mean(wrong_rewards[-20:]):.3f}, P(best arm) {wrong_best[-1]:.3f}")
# zh: 损失本身看不出对错：两种符号下的损失（前 20 步和最后 20 步的平均）
# en: The loss itself cannot tell right from wrong: the loss under either sign (mean of the first and last 20 steps).
for label, ls in (("-log_prob*A", losses), ("+log_prob*A", wrong_losses)):
    print(f"loss {label}: first 20 steps {np.mean(ls[:20]):+.3f}, last 20 steps {np.mean(ls[-20:]):+.3f}")

# %% caption="REINFORCE on a 5-armed bandit: reward, probability of the best arm and loss, with the right and the wrong sign" caption_zh="5 臂老虎机上的 REINFORCE：损失符号正确和错误时的奖励、最优臂的概率和损失"
import matplotlib.pyplot as plt


def smooth(xs, k=10):
    return np.convolve(xs, np.ones(k) / k, mode="valid")


fig, axes = plt.subplots(1, 3, figsize=(12, 3))
axes[0].plot(smooth(rewards), label="loss = -log_prob * A")
axes[0].plot(smooth(wrong_rewards), label="loss = +log_prob * A (wrong sign)")
axes[0].axhline(0.8, color="gray", linestyle="--", label="best arm (0.8)")
axes[0].set_xlabel("step")
axes[0].set_ylabel("mean reward (10-step average)")
axes[0].legend(fontsize=8)
axes[1].plot(best, label="right sign")
axes[1].plot(wrong_best, label="wrong sign")
axes[1].set_xlabel("step")
axes[1].set_ylabel("P(best arm)")
axes[1].legend(fontsize=8)
axes[2].plot(smooth(losses), label="right sign")
axes[2].plot(smooth(wrong_losses), label="wrong sign")
axes[2].set_xlabel("step")
axes[2].set_ylabel("loss (10-step average)")
axes[2].legend(fontsize=8)
fig.tight_layout()
plt.show()
