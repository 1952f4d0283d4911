# %%
import logging

import torch

logging.getLogger("torch").setLevel(logging.ERROR)  # zh: 隐藏带时间戳的日志 | en: hide log lines with timestamps
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


def noisy(x):
    y = torch.sin(x) + 1
    # zh: 调试用的 print 不能放进图里：图在这里中断
    # en: A debugging print cannot go into a graph: the graph breaks here.
    print("  peak:", y.max().item())
    return y / y.max()


def quiet(x):
    y = torch.sin(x) + 1
    return y / y.max()


x = torch.linspace(-3, 3, 7, device=device)

# %% raises="Unsupported"
torch.compile(noisy, fullgraph=True, backend="eager")(x)

# %%
torch._dynamo.reset()  # zh: 清掉上面的编译缓存 | en: forget the compilations above
for fn in (noisy, quiet):
    report = torch._dynamo.explain(fn)(x)
    print(f"{fn.__name__}: graphs {report.graph_count}, graph breaks {report.graph_break_count}")
    for reason in report.break_reasons:
        print("  reason:", reason.reason.splitlines()[0])

# %%
# zh: 去掉 print 的版本能以 fullgraph=True 编译，结果和原函数一致
# en: Without the print it compiles with fullgraph=True and agrees with the original.
compiled = torch.compile(quiet, fullgraph=True, backend="eager")
print("same result:", torch.allclose(compiled(x), noisy(x)))
