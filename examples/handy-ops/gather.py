# %%
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
# Q-values: one row per state in the batch, one column per action
q = torch.tensor([[1.0, 5.0, 2.0],
                  [4.0, 0.5, 3.0],
                  [2.5, 6.0, 7.0],
                  [0.0, 1.5, 9.0]], device=device)
actions = torch.tensor([2, 0, 1, 1], device=device)  # action taken in each state

# index must have the same number of dims as q: shape (4,) -> (4, 1)
picked = q.gather(dim=1, index=actions.unsqueeze(1))
print("picked.shape:", picked.shape)

# %%
# out[i][0] = q[i][index[i][0]]   (dim=1: the index replaces the column number)
print("row | q[row]               | action | q[row, action]")
for i in range(q.shape[0]):
    print(f"{i:3d} | {q[i].tolist()!s:20} | {actions[i].item():6d} | {picked[i, 0].item()}")
print("same as advanced indexing:",
      torch.equal(picked.squeeze(1), q[torch.arange(4, device=device), actions]))

# %%
# dim=0: the index replaces the row number, one per column
rows = torch.tensor([[3, 0, 1]], device=device)
print("q.gather(0, [[3, 0, 1]]):", q.gather(0, rows))  # q[3][0], q[0][1], q[1][2]

# %% raises="RuntimeError"
picked = q.gather(1, actions)  # 1-D index for a 2-D input
