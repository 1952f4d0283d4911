# /// example
# timeout = 180
# ///
# %%
import time

import torch
from torch import nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
x = torch.randn(8, 16, device=device)

compiled = torch.compile(model)  # default backend: "inductor" (generates C++/Triton code)
print("type:", type(compiled).__name__)

# %% volatile=true
for call in ("first call (compiles)", "second call"):
    t0 = time.perf_counter()
    y = compiled(x)
    print(f"{call}: {time.perf_counter() - t0:.3f} s")

# %%
print("same result as eager:", torch.allclose(y, model(x), atol=1e-6))


# %%
def f(x):
    if x.sum() > 0:  # data-dependent control flow
        return x * 2
    return -x


pos = torch.ones(3, device=device)
cf = torch.compile(f, backend="eager")  # "eager": capture graphs, skip code generation
print("compiled f(pos):", cf(pos), " f(-pos):", cf(-pos))
report = torch._dynamo.explain(f)(pos)
print("graphs:", report.graph_count, " graph breaks:", report.graph_break_count)

try:
    torch.compile(f, fullgraph=True, backend="eager")(pos)
except RuntimeError as err:  # torch._dynamo.exc.Unsupported
    print("fullgraph=True ->", type(err).__name__ + ":", str(err).splitlines()[0])
