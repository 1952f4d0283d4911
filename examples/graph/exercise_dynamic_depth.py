# %%
import torch


def shrink(x):
    steps = 0
    while x.abs() > 1:  # zh: 循环次数取决于数据 | en: the number of turns depends on the data
        x = x / 2
        steps += 1
    return x, steps


def depth(t):
    n, fn = 0, t.grad_fn
    while fn is not None and fn.next_functions:
        n, fn = n + 1, fn.next_functions[0][0]
    return n


# zh: 预测：10 → 5 → 2.5 → 1.25 → 0.625 减半 4 次，导数是 (1/2)^4；-3 减半 2 次
# en: Prediction: 10 → 5 → 2.5 → 1.25 → 0.625 is 4 halvings, so the derivative is (1/2)^4; -3 takes 2.
for x0, predicted_steps in [(10.0, 4), (-3.0, 2)]:
    x = torch.tensor(x0, requires_grad=True)
    y, steps = shrink(x)
    y.backward()
    print(f"x = {x0:5}: {steps} halvings, {depth(y)} DivBackward0 nodes, dy/dx = {x.grad.item()}")
    assert steps == depth(y) == predicted_steps
    assert x.grad.item() == 0.5 ** predicted_steps

# %%
# zh: |x| <= 1 时循环一次也不执行：没有运算，也就没有图
# en: With |x| <= 1 the loop never runs: no operation, so no graph.
x = torch.tensor(0.5, requires_grad=True)
y, steps = shrink(x)
print("x = 0.5:", steps, "halvings; y is x:", y is x, " y.grad_fn:", y.grad_fn)
