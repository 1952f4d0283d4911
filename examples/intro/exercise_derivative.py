# %%
import math

import torch


# zh: 手算：f(x) = x² · sin(x)，f'(x) = 2x · sin(x) + x² · cos(x)
# en: By hand: f(x) = x² · sin(x), so f'(x) = 2x · sin(x) + x² · cos(x).
def f_prime_by_hand(x):
    return 2 * x * math.sin(x) + x ** 2 * math.cos(x)


for x0 in [0.0, 1.0, 2.5, -3.0]:
    x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
    y = x ** 2 * torch.sin(x)
    y.backward()
    by_hand = f_prime_by_hand(x0)
    print(f"x = {x0:5.1f}   autograd {x.grad.item():+.6f}   by hand {by_hand:+.6f}")
    assert math.isclose(x.grad.item(), by_hand, rel_tol=1e-12, abs_tol=1e-12)
print("autograd matches the hand derivation at every point")
