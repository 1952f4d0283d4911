# %%
import math

import torch
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

graphs = []  # zh: 后端收到的每一张图 | en: every graph the backend has received


def ops(gm):
    # zh: 图里的运算（不含输入和输出节点）
    # en: The operations of a graph (its input and output nodes left out).
    return [getattr(n.target, "__name__", str(n.target)) for n in gm.graph.nodes if n.op.startswith("call_")]


def show_backend(gm, example_inputs):
    # zh: 后端就是一个函数：拿到 Dynamo 捕获的 FX 图（GraphModule）和示例输入，返回一个可调用对象
    # en: A backend is just a function: it gets the FX graph Dynamo captured (a GraphModule) and example
    # en: inputs, and returns a callable.
    graphs.append(gm)
    print(f"[backend] graph {len(graphs)}: {len(example_inputs)} inputs, ops {ops(gm)}")
    return gm.forward  # zh: 原样运行这张图，和 backend="eager" 一样 | en: run the graph as it is, like backend="eager"


def f(x):
    h = x
    for _ in range(3):  # zh: Python 循环：展开成三次 tanh | en: a Python loop: unrolled into three tanh
        h = torch.tanh(h)
    scale = math.sqrt(x.shape[-1])  # zh: 对形状做的 Python 运算：在图里只剩一个常数 | en: Python arithmetic on a shape: a constant in the graph
    return h * scale


x = torch.randn(2, 4, device=device)
cf = torch.compile(f, backend=show_backend)
out = cf(x)
print("same as eager:", torch.allclose(out, f(x)))
print(graphs[0].code.strip())

# %%
cf(x)  # zh: 同样的输入再调用一次：守卫通过，直接复用，后端不再被调用 | en: the same input again: guards pass, no new graph
print("graphs after a second call:", len(graphs))

# %%
# zh: 模块的参数成了图的输入，ModuleList 上的循环同样被展开
# en: A module's parameters become inputs of the graph, and the loop over a ModuleList is unrolled too.
graphs.clear()


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


model = MLP().to(device)
torch.compile(model, backend=show_backend)(x)
for node in graphs[0].graph.find_nodes(op="placeholder"):
    print("  input:", node.target)

# %%
# zh: 图中断：print 不能放进图里。函数被切成两张图，print 由 Python 在两张图之间执行
# en: A graph break: print cannot go into a graph. The function is cut into two graphs, and Python runs the
# en: print between them.
graphs.clear()


def g(x):
    h = torch.relu(x) + 1
    print("  [python] between the graphs")
    return h.sum(dim=-1)


cg = torch.compile(g, backend=show_backend)
cg(x)
cg(x)  # zh: 第二次调用：没有新图，但 print 照样执行 | en: second call: no new graph, yet the print still runs
print("graphs:", len(graphs))

# %%
# zh: Python 的值在捕获时就定下来了：Dropout 的 training 标志作为常数写进图里；model.eval() 之后守卫不通过，
# zh: 重新捕获一张图
# en: Python values are fixed at capture: Dropout's training flag is written into the graph as a constant;
# en: after model.eval() a guard fails and a new graph is captured.
graphs.clear()
drop_model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)).to(device)
cd = torch.compile(drop_model, backend=show_backend)
for mode in ["train", "eval", "train"]:
    getattr(drop_model, mode)()
    cd(x)
    print(f"after {mode}(): {len(graphs)} graph(s)")
for i, gm in enumerate(graphs, 1):
    (node,) = gm.graph.find_nodes(op="call_function", target=torch.nn.functional.dropout)
    print(f"graph {i}: dropout(input, p={node.args[1]}, training={node.args[2]})")
