# %%
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
xv = x.detach()  # zh: 用来写预测的普通张量 | en: a plain tensor for writing predictions


def check(step, predicted):
    print(f"{step:42} x.grad = {x.grad.tolist()}  predicted {predicted.tolist()}")
    assert torch.equal(x.grad, predicted)


(x * x).sum().backward()
check("1. (x * x).sum().backward()", 2 * xv)

(3 * x).sum().backward()  # zh: 没有清零：累加 | en: not cleared: accumulates
check("2. (3 * x).sum().backward()", 2 * xv + 3)

x.grad.zero_()
(x ** 3).sum().backward()
check("3. zero_(), then (x ** 3).sum().backward()", 3 * xv ** 2)

(x.detach() * 5 + x).sum().backward()  # zh: detach 的那一项不贡献梯度 | en: the detached term contributes nothing
check("4. (x.detach() * 5 + x).sum().backward()", 3 * xv ** 2 + 1)

with torch.no_grad():
    z = (x * 10).sum()  # zh: 没有被记录 | en: not recorded
print("5. under no_grad: z.requires_grad =", z.requires_grad, "-> z.backward() would raise")
check("   x.grad unchanged", 3 * xv ** 2 + 1)
