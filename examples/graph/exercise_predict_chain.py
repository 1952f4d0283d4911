# %%
import torch


# zh: 从 t 的 grad_fn 出发，沿第一个输入走到叶子节点
# en: From t's grad_fn, follow the first input down to a leaf.
def chain(t):
    names, fn = [], t.grad_fn
    while fn is not None:
        names.append(fn.name().removeprefix("torch::autograd::"))
        fn = fn.next_functions[0][0] if fn.next_functions else None
    return names


a = torch.randn(4, requires_grad=True)
cases = [
    ("((a * 2).relu() + 1).mean()", lambda: ((a * 2).relu() + 1).mean(),
     ["MeanBackward0", "AddBackward0", "ReluBackward0", "MulBackward0", "AccumulateGrad"]),
    ("(a.exp() * 3).sum()", lambda: (a.exp() * 3).sum(),
     ["SumBackward0", "MulBackward0", "ExpBackward0", "AccumulateGrad"]),
    ("a.view(2, 2).t().sum()", lambda: a.view(2, 2).t().sum(),
     ["SumBackward0", "TBackward0", "ViewBackward0", "AccumulateGrad"]),
]
for text, make, predicted in cases:
    got = chain(make())
    print(f"{text:28} {' <- '.join(got)}")
    assert got == predicted, (got, predicted)
print("every chain as predicted")
