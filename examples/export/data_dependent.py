# /// example
# timeout = 120
# ///
# %%
import logging

import torch
from torch import nn

logging.getLogger("torch").setLevel(logging.ERROR)  # zh: 隐藏一行带时间戳的日志 | en: hide a log line with a timestamp


class Branchy(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # zh: 取决于 x 的数值 | en: depends on the values in x
            return x * 2
        return -x


# %% raises="GuardOnDataDependentSymNode"
torch.export.export(Branchy(), (torch.ones(3),))


# %%
# zh: 取决于形状的条件没有问题：导出时形状是已知的
# en: a condition on the shape is fine: shapes are known when exporting
class ShapeBranch(nn.Module):
    def forward(self, x):
        if x.shape[0] > 2:
            return x * 2
        return -x


ep = torch.export.export(ShapeBranch(), (torch.ones(3),))
print(ep.graph_module.code.strip())


# %%
# zh: torch.cond 记录两个分支，运行时再选一个
# en: torch.cond records both branches and picks one when the program runs
class CondBranch(nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda t: t * 2, lambda t: -t, (x,))


m = torch.export.export(CondBranch(), (torch.ones(3),)).module()
print("ones ->", m(torch.ones(3)), " -ones ->", m(-torch.ones(3)))
