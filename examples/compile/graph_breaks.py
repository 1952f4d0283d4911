# %% warns="UserWarning"
import logging
import time

import torch

# zh: .item() 造成的图中断还会打一条很长的 WARNING 日志（带时间戳）；下面用 explain 的报告看原因，日志调到只显示错误
# en: The .item() break also writes a long WARNING log line (with a timestamp); the report of explain below
# en: shows the reason, so the log is turned down to errors only.
torch._logging.set_logs(dynamo=logging.ERROR)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def with_print(x):
    y = torch.sin(x)
    # zh: 原因一：print
    # en: Cause 1: print.
    print("  debug:", tuple(y.shape))
    return torch.cos(y)


def with_item(x):
    y = torch.sin(x)
    # zh: 原因二：把张量的值取成 Python 数
    # en: Cause 2: a tensor's value as a Python number.
    peak = y.abs().max().item()
    return y / peak


def with_branch(x):
    y = torch.sin(x)
    # zh: 原因三：取决于数据的 Python 控制流
    # en: Cause 3: data-dependent Python control flow.
    if y.sum() > 0:
        return torch.cos(y)
    return -y


def with_c_call(x):
    y = torch.sin(x)
    # zh: 原因四：Dynamo 追踪不了的 C 函数
    # en: Cause 4: a C function Dynamo cannot trace.
    start = time.perf_counter()
    return torch.cos(y), start


x = torch.randn(8, device=device)
for fn in [with_print, with_item, with_branch, with_c_call]:
    report = torch._dynamo.explain(fn)(x)
    print(f"{fn.__name__}: {report.graph_count} graphs, {report.graph_break_count} graph break")
    for reason in report.break_reasons:
        frame = reason.user_stack[-1]  # zh: 用户代码里出问题的那一行 | en: the line of user code that broke the graph
        print(f"  at: {frame.line}")
        print(f"  reason: {reason.reason.splitlines()[0]}")

# %% raises="Unsupported"
# zh: fullgraph=True：要求整个函数是一张图，图中断变成错误，报错信息里有原因、解释、提示和出错的那一行
# en: fullgraph=True demands one graph for the whole function: the break becomes an error whose message gives
# en: the reason, an explanation, hints and the offending line.
torch.compile(with_c_call, fullgraph=True, backend="eager")(x)

# %%
# zh: 按提示打开 capture_scalar_outputs，.item() 就能留在图里：值成了一个符号，不再中断
# en: Following the hint, capture_scalar_outputs keeps .item() in the graph: the value becomes a symbol, no break.
with torch._dynamo.config.patch(capture_scalar_outputs=True):
    torch._dynamo.reset()
    report = torch._dynamo.explain(with_item)(x)
    print(f"with_item: {report.graph_count} graph, {report.graph_break_count} graph breaks")
    ops = [getattr(n.target, "__name__", str(n.target)) for n in report.graphs[0].graph.nodes if n.op.startswith("call_")]
    print("  ops:", ops)
    compiled = torch.compile(with_item, fullgraph=True, backend="eager")
    print("  fullgraph=True compiles now; same as eager:", torch.allclose(compiled(x), with_item(x)))
