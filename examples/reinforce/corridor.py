# /// example
# timeout = 120
# ///
# %%
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

torch.manual_seed(0)
N, GOAL, MAX_STEPS, GAMMA = 6, 5, 20, 0.9  # zh: 格子 0..5；从 0 出发，终点是 5 | en: cells 0..5; start at 0, the goal is cell 5


def step(state, action):  # zh: 动作 0 = 向左，1 = 向右 | en: action 0 = left, 1 = right
    state = min(max(state + (1 if action == 1 else -1), 0), N - 1)
    return state, (1.0 if state == GOAL else 0.0), state == GOAL


def returns_to_go(rewards, gamma=GAMMA):
    g, out = 0.0, []
    for r in reversed(rewards):  # zh: 回报 G_t = r_t + gamma * G_{t+1} | en: G_t = r_t + gamma * G_{t+1}
        g = r + gamma * g
        out.append(g)
    return torch.tensor(out[::-1])


print("returns for rewards [0, 0, 0, 1]:", returns_to_go([0, 0, 0, 1]))

# %%
policy = nn.Sequential(nn.Linear(N, 16), nn.Tanh(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(policy.parameters(), lr=0.02)
eye = torch.eye(N)  # zh: 格子的独热编码 | en: one-hot encoding of the cell
lengths = []

for episode in range(300):
    state, states, actions, rewards = 0, [], [], []
    for _ in range(MAX_STEPS):
        with torch.no_grad():
            action = Categorical(logits=policy(eye[state])).sample().item()
        states.append(state)
        actions.append(action)
        state, reward, done = step(state, action)
        rewards.append(reward)
        if done:
            break
    lengths.append(len(actions))

    # zh: 整个回合只做一次前向传播；gather 取出每一步的动作
    # en: one forward pass over the whole episode; gather picks each step's action
    log_probs = torch.log_softmax(policy(eye[states]), dim=1)
    taken = log_probs.gather(1, torch.tensor(actions).unsqueeze(1)).squeeze(1)
    loss = -(taken * returns_to_go(rewards)).sum()  # zh: 负号：我们要让回报上升 | en: minus: we want to go UP the return
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if episode % 50 == 0 or episode == 299:
        print(f"episode {episode:3d}: {len(actions):2d} steps, reached goal: {rewards[-1] == 1.0}")

# %%
with torch.no_grad():
    p_right = torch.softmax(policy(eye), dim=1)[:, 1]
print("P(right) in each cell:", p_right.numpy().round(3))
print("shortest path: 5 steps; mean of the last 20 episodes:", np.mean(lengths[-20:]))

# %% caption="Episode length while REINFORCE learns the corridor" caption_zh="REINFORCE 学习走廊时每个回合的长度"
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 3))
ax.plot(lengths, alpha=0.4, label="episode length")
ax.plot(np.arange(19, len(lengths)), np.convolve(lengths, np.ones(20) / 20, mode="valid"), label="20-episode average")
ax.axhline(5, color="gray", linestyle="--", label="shortest path (5)")
ax.set_xlabel("episode")
ax.set_ylabel("steps to reach the goal")
ax.legend()
fig.tight_layout()
plt.show()
