# %%
import logging

import torch

torch._logging.set_logs(dynamo=logging.ERROR)  # zh: 见 graph_breaks.py | en: see graph_breaks.py
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def normalise(x):
    y = x - x.mean()
    peak = y.abs().max().item()
    if peak > 1:
        y = y / peak
    print("  peak:", round(peak, 3))
    return y


small = torch.linspace(-0.5, 0.5, 5, device=device)  # zh: 峰值不到 1 | en: peak below 1
large = torch.linspace(-4.0, 4.0, 5, device=device)  # zh: 峰值超过 1 | en: peak above 1
report = torch._dynamo.explain(normalise)(large)
print(f"normalise: {report.graph_count} graphs, broken at {len(report.break_reasons)} places")
for reason in report.break_reasons:
    print(f"  at: {reason.user_stack[-1].line}\n    reason: {reason.reason.splitlines()[0]}")


# %%
# zh: 改写：峰值留在张量里，分支换成 torch.where，调试输出移到函数外面（需要时由调用者打印返回的 peak）
# en: The rewrite: the peak stays a tensor, the branch becomes torch.where, and the debug output moves out of
# en: the function (the caller prints the returned peak when it wants to).
def normalise_graph(x):
    y = x - x.mean()
    peak = y.abs().max()
    return torch.where(peak > 1, y / peak, y), peak


torch._dynamo.reset()
report = torch._dynamo.explain(normalise_graph)(large)
print(f"normalise_graph: {report.graph_count} graph, broken at {len(report.break_reasons)} places")
compiled = torch.compile(normalise_graph, fullgraph=True, backend="eager")
for x in [small, large]:
    y, peak = compiled(x)
    print(f"peak {peak.item():.3f}: same as the original:", torch.allclose(y, normalise(x)))
