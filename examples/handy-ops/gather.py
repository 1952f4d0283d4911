# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: Q 值：每行是批量中的一个状态，每列是一个动作
# en: Q-values: one row per state in the batch, one column per action
q = torch.tensor([[1.0, 5.0, 2.0],
                  [4.0, 0.5, 3.0],
                  [2.5, 6.0, 7.0],
                  [0.0, 1.5, 9.0]], device=device)
actions = torch.tensor([2, 0, 1, 1], device=device)  # zh: 每个状态下实际执行的动作 | en: action taken in each state

# zh: index 的维数必须和 q 相同：形状 (4,) -> (4, 1)
# en: index must have the same number of dims as q: shape (4,) -> (4, 1)
picked = q.gather(dim=1, index=actions.unsqueeze(1))
print("picked.shape:", picked.shape)

# %%
# zh: out[i][0] = q[i][index[i][0]]（dim=1：用 index 代替列号）
# en: out[i][0] = q[i][index[i][0]]   (dim=1: the index replaces the column number)
print("row | q[row]               | action | q[row, action]")
for i in range(q.shape[0]):
    print(f"{i:3d} | {q[i].tolist()!s:20} | {actions[i].item():6d} | {picked[i, 0].item()}")
print("same as advanced indexing:",
      torch.equal(picked.squeeze(1), q[torch.arange(4, device=device), actions]))

# %%
# zh: dim=0：用 index 代替行号，每列一个
# en: dim=0: the index replaces the row number, one per column
rows = torch.tensor([[3, 0, 1]], device=device)
print("q.gather(0, [[3, 0, 1]]):", q.gather(0, rows))  # zh: 即 q[3][0]、q[0][1]、q[1][2] | en: q[3][0], q[0][1], q[1][2]

# %% raises="RuntimeError"
picked = q.gather(1, actions)  # zh: 二维输入配了一维的 index | en: 1-D index for a 2-D input
