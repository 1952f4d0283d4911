# %%
import functools
import multiprocessing

import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.tensor([i, i * i])


def scale(batch, factor):
    # zh: 定义在模块顶层的函数：pickle 只记下它的名字，工作进程按名字找回它
    # en: A function at module level: pickle records only its name, and the worker looks it up by that name.
    return torch.stack(batch) * factor


def loader(collate_fn, context=None):
    return DataLoader(Squares(), batch_size=2, num_workers=1, collate_fn=collate_fn,
                      multiprocessing_context=context)


# zh: 用 spawn 启动的工作进程会重新导入这个脚本，所以下面每个单元格都放在这个判断里
# en: A worker started by spawn imports this script again, so every cell below sits under this test.
if __name__ == "__main__":
    print("default start method here:", multiprocessing.get_start_method())
    print("fork, lambda:", list(loader(lambda batch: torch.stack(batch) * 10, context="fork")))

# %% raises="PicklingError" volatile=true warns="UserWarning"
# zh: spawn：DataLoader 要把 collate_fn 经 pickle 送进工作进程，lambda 没有能找回的名字
# en: spawn: DataLoader pickles collate_fn to send it to the worker, and a lambda has no name to look up.
if __name__ == "__main__":
    list(loader(lambda batch: torch.stack(batch) * 10, context="spawn"))

# %% raises="AttributeError"
# zh: 定义在函数里的 lambda（或函数）是“局部对象”，同样不能 pickle
# en: A lambda (or function) defined inside a function is a "local object": it cannot be pickled either.
def make_loader(factor):
    return loader(lambda batch: torch.stack(batch) * factor, context="spawn")


if __name__ == "__main__":
    list(make_loader(10))

# %%
# zh: 修正：模块顶层的函数，参数用 functools.partial 绑定
# en: The fix: a module-level function, its argument bound with functools.partial.
if __name__ == "__main__":
    fixed = loader(functools.partial(scale, factor=10), context="spawn")
    print("spawn, partial(scale):", list(fixed))
    print("start method of its worker:", fixed.multiprocessing_context.get_start_method())
