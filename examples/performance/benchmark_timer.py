# %%
import torch
import torch.utils.benchmark as benchmark

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
a = torch.randn(256, 256, device=device)
b = torch.randn(256, 256, device=device)

# %% volatile=true
# zh: Timer 负责预热、在 GPU 上同步，默认只用 1 个线程（num_threads 可改）
# en: Timer handles warm-up and GPU synchronisation; it uses 1 thread unless num_threads says otherwise.
t = benchmark.Timer(stmt="a @ b", globals={"a": a, "b": b})
print(t.timeit(100))  # zh: 固定运行 100 次 | en: exactly 100 runs

# %% volatile=true
# zh: blocked_autorange 自己决定每块运行几次，至少测 min_run_time 秒，报告各块的中位数
# en: blocked_autorange picks the runs per block itself, measures at least min_run_time seconds, reports the median.
m = t.blocked_autorange(min_run_time=0.5)
print(m)
print(f"median {m.median * 1e6:.1f} us over {len(m.times)} blocks of {m.number_per_run} runs")

# %% volatile=true
# zh: 比较几种写法：同样的矩阵乘法，以及 Python 循环与向量化的行归一化
# en: Compare implementations: the same product three ways, and a Python loop versus vectorised row normalisation.


def normalise_loop(x):
    return torch.stack([row / row.norm() for row in x])


def normalise_vec(x):
    return x / x.norm(dim=1, keepdim=True)


torch.testing.assert_close(normalise_loop(a), normalise_vec(a))  # zh: 先确认结果一样 | en: check they agree first
cases = {
    "matmul": {"a @ b": "a @ b", "torch.einsum": "torch.einsum('ij,jk->ik', a, b)"},
    "row normalise": {"Python loop": "normalise_loop(a)", "vectorised": "normalise_vec(a)"},
}
results = []
for n in (64, 256):
    x, y = a[:n, :n].contiguous(), b[:n, :n].contiguous()
    for label, stmts in cases.items():
        for sub_label, stmt in stmts.items():
            timer = benchmark.Timer(
                stmt=stmt,
                globals={"a": x, "b": y, "torch": torch, "normalise_loop": normalise_loop, "normalise_vec": normalise_vec},
                label=label, sub_label=sub_label, description=f"{n}x{n}",
            )
            results.append(timer.blocked_autorange(min_run_time=0.2))
benchmark.Compare(results).print()  # zh: 每个 label 一张表，时间单位自动选择 | en: one table per label, units chosen automatically
