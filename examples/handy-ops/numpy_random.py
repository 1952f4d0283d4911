# %%
import numpy as np

# zh: 旧的全局接口：一个隐藏的全局生成器，用 np.random.seed 设种子
# en: Legacy global API: one hidden global generator, seeded with np.random.seed
np.random.seed(0)
print("uniform(0, 1, size=3):", np.random.uniform(0.0, 1.0, size=3))
print("uniform(-2, 2):", np.random.uniform(-2, 2))
print("choice(5, size=4):", np.random.choice(5, size=4))
print("choice(['up','down'], p=[0.9, 0.1], size=6):",
      np.random.choice(["up", "down"], p=[0.9, 0.1], size=6))
print("choice(5, size=5, replace=False):", np.random.choice(5, size=5, replace=False))

# %%
# zh: 新接口：显式的 Generator 对象
# en: Modern API: an explicit Generator object
rng = np.random.default_rng(0)
print("rng.uniform(0, 1, size=3):", rng.uniform(0.0, 1.0, size=3))
print("rng.random(3):", rng.random(3))
print("rng.choice(5, size=4):", rng.choice(5, size=4))
print("rng.choice(['up','down'], p=[0.9, 0.1], size=6):",
      rng.choice(["up", "down"], p=[0.9, 0.1], size=6))
print("rng.integers(0, 5, size=4):", rng.integers(0, 5, size=4))

# %%
# zh: ε-greedy 选动作，很多强化学习循环都这样写
# en: epsilon-greedy action selection, as in many RL loops
rng = np.random.default_rng(42)
q_values = np.array([0.2, 0.9, 0.4])
epsilon = 0.3


def select_action():
    if rng.uniform() < epsilon:
        return int(rng.choice(len(q_values)))  # zh: 探索 | en: explore
    return int(np.argmax(q_values))            # zh: 利用 | en: exploit


picks = [select_action() for _ in range(1000)]
print("action counts:", np.bincount(picks, minlength=3))
print("expected about:", [round(1000 * (epsilon / 3 + (1 - epsilon) * (a == 1))) for a in range(3)])
