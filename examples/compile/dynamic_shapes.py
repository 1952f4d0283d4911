# %%
import os

os.environ["TORCH_LOGS_FORMAT"] = "%(name)s: %(message)s"  # zh: 见上一个示例 | en: see the previous example

import torch  # noqa: E402

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

graphs = []


def keep_backend(gm, example_inputs):
    graphs.append(gm)
    return gm.forward


def center(x):
    return (x - x.mean(dim=0)) / x.shape[0]


# zh: dynamic=True：一开始就把各维的大小当作符号，一张图适用于所有形状
# en: dynamic=True: every size is a symbol from the start, and one graph serves every shape.
cc = torch.compile(center, backend=keep_backend, dynamic=True)
for rows in [3, 5, 7]:
    out = cc(torch.randn(rows, 4, device=device))
print("dynamic=True, 3 shapes:", len(graphs), "graph")
print(graphs[0].code.strip())

# %%
# zh: mark_dynamic(x, 0)：只有第 0 维是符号，其余各维仍按具体数值编译
# en: mark_dynamic(x, 0): only dim 0 is a symbol; the other dims are still compiled for their exact values.
torch._dynamo.reset()
graphs.clear()
cc = torch.compile(center, backend=keep_backend)
torch._logging.set_logs(recompiles=True)
for shape in [(3, 4), (5, 4), (7, 4), (7, 6)]:
    x = torch.randn(shape, device=device)
    torch._dynamo.mark_dynamic(x, 0)
    cc(x)
    print(f"shape {shape}: {len(graphs)} graph(s)", flush=True)
torch._logging.set_logs()
print(graphs[0].code.strip())

# %%
# zh: dynamic=False：从不使用符号，每个新形状都重新编译
# en: dynamic=False: never a symbol, every new shape is compiled again.
torch._dynamo.reset()
graphs.clear()
cc = torch.compile(center, backend=keep_backend, dynamic=False)
for rows in [3, 5, 7]:
    cc(torch.randn(rows, 4, device=device))
print("dynamic=False, 3 shapes:", len(graphs), "graphs")
print("inputs of the third:", [n.meta["example_value"].shape for n in graphs[2].graph.find_nodes(op="placeholder")])
