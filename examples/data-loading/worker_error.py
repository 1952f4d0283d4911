# %%
import torch
from torch.utils.data import DataLoader, Dataset


# zh: 样本 2 读不出来（比如文件坏了）
# en: Sample 2 cannot be read (a corrupt file, say).
class Broken(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, idx):
        if idx == 2:
            raise ValueError(f"cannot read sample {idx}")
        return torch.tensor(idx)


# %% raises="ValueError"
# zh: 在工作进程里出错：主进程重新抛出同一类异常，消息里附上工作进程的 traceback
# en: An error in a worker: the main process raises the same exception type again, with the worker's traceback in its message.
for batch in DataLoader(Broken(), batch_size=1, num_workers=1):
    print(batch)

# %% raises="ValueError"
# zh: num_workers=0：__getitem__ 在主进程里运行，traceback 直接指向出错的那一行
# en: num_workers=0: __getitem__ runs in the main process, and the traceback points straight at the failing line.
for batch in DataLoader(Broken(), batch_size=1, num_workers=0):
    print(batch)
