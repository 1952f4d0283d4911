# /// example
# timeout = 120
# ///
# %%
import torch
from torch import nn


class Normalise(nn.Module):  # zh: 练习里的模块：导出在它的 `if` 上失败 | en: the module from the exercise: export fails on its `if`
    def forward(self, x):
        peak = x.abs().max()
        if peak > 1:
            return x / peak
        return x


class NormaliseCond(nn.Module):  # zh: 两个分支都进入计算图 | en: both branches go into the graph
    def forward(self, x):
        peak = x.abs().max()
        return torch.cond(peak > 1, lambda t, p: t / p, lambda t, p: t.clone(), (x, peak))


class NormaliseBranchless(nn.Module):  # zh: 完全不用分支：除以 max(peak, 1) | en: no branch at all: dividing by max(peak, 1)
    def forward(self, x):
        return x / x.abs().max().clamp(min=1)


small, big = torch.tensor([0.5, -0.25]), torch.tensor([4.0, -2.0])
for cls in (NormaliseCond, NormaliseBranchless):
    exported = torch.export.export(cls(), (small,)).module()
    for x in (small, big):
        torch.testing.assert_close(exported(x), Normalise()(x))
    print(cls.__name__, "exported:", exported(small).tolist(), exported(big).tolist())
