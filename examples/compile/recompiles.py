# %%
import os

# zh: torch 的日志行默认以时间戳和进程号开头；只留日志名和消息，每次运行的输出才相同。要在 import torch 之前设置
# en: torch's log lines start with a timestamp and a process id by default; keeping only the logger's name and
# en: the message makes every run print the same. It must be set before importing torch.
os.environ["TORCH_LOGS_FORMAT"] = "%(name)s: %(message)s"

import torch  # noqa: E402

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"

compiles = []  # zh: 每次编译时图的示例输入 | en: the example inputs of each compilation


def counting_backend(gm, example_inputs):
    compiles.append([tuple(t.shape) if isinstance(t, torch.Tensor) else t for t in example_inputs])
    return gm.forward


def f(x, training):
    y = torch.tanh(x) * 2
    # zh: Python 的 bool：捕获时取它的值，再加一条守卫
    # en: A Python bool: its value is baked in, with a guard.
    if training:
        y = y + 1
    return y


# zh: 进程内的写法，等同于在命令行设置 TORCH_LOGS="recompiles"：每次重新编译都记一条日志（写到 stderr）
# en: The in-process equivalent of TORCH_LOGS="recompiles" on the command line: each recompilation is logged
# en: (to stderr).
torch._logging.set_logs(recompiles=True)
cf = torch.compile(f, backend=counting_backend)
for n in [4, 8, 16, 32]:
    cf(torch.randn(n, device=device), True)
    print(f"x of shape ({n},): {len(compiles)} compilation(s), graph inputs {compiles[-1]}", flush=True)

# %%
# zh: 换 dtype、换 Python 常数，守卫同样不通过
# en: A new dtype or a new Python constant fails a guard just the same.
torch._dynamo.reset()  # zh: 清空缓存，让日志短一些 | en: clear the cache to keep the log short
compiles.clear()
x = torch.randn(4, device=device)
for args in [(x, True), (x.double(), True), (x, False)]:
    cf(*args)
    print(f"dtype {args[0].dtype}, training={args[1]}: {len(compiles)} compilation(s)", flush=True)

# %%
# zh: 每个函数最多编译 recompile_limit 次（缓存里的图数，第一张也算在内）；超过以后不再编译，直接按 eager 运行
# en: A function is compiled at most recompile_limit times (graphs in its cache, the first included); past that it runs eagerly.
torch._logging.set_logs()  # zh: 恢复默认日志设置 | en: back to the default log settings
print("recompile_limit:", torch._dynamo.config.recompile_limit)
compiles.clear()


def activation(x, name):
    # zh: 字符串参数：每个新值都要一张新图
    # en: A string argument: every new value needs a new graph.
    return getattr(torch, name)(x)


ca = torch.compile(activation, backend=counting_backend)
names = ["tanh", "sigmoid", "relu", "sin", "cos", "exp", "abs", "neg", "sqrt", "square"]
right = [torch.allclose(ca(x, name), activation(x, name), equal_nan=True) for name in names]
print(f"{len(names)} names, {len(compiles)} compilations; every result right: {all(right)}")
