# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
q = torch.tensor([[1.0, 5.0, 2.0],
                  [4.0, 0.5, 3.0]], device=device)
# zh: 动作和状态一起存成了浮点数（比如在一个经验回放缓冲区里）
# en: actions stored as floats alongside the states (in a replay buffer, say)
actions = torch.tensor([2.0, 0.0], device=device)

# %% raises="RuntimeError"
q.gather(1, actions.unsqueeze(1))

# %%
print(q.gather(1, actions.long().unsqueeze(1)))  # zh: 先转成 int64 | en: convert to int64 first
