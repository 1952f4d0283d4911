# %%
import torch

torch.manual_seed(0)
x = torch.relu(torch.randn(10_000))  # zh: ReLU 的输出：全都 >= 0 | en: ReLU outputs: all >= 0

# zh: 对称量化：零点固定为 0，负的那一半代码一个也用不上
# en: Symmetric: the zero point is fixed at 0, and the negative half of the codes goes unused.
s_sym = x.abs().max() / 127
q_sym = torch.round(x / s_sym).clamp(-128, 127)
x_sym = q_sym * s_sym

# zh: 非对称量化：把 [min, max] 映射到全部 256 个代码 [-128, 127]，零点 zp 是 0.0 对应的代码
# en: Asymmetric: map [min, max] onto all 256 codes [-128, 127]; the zero point zp is the code of 0.0.
lo, hi = x.min(), x.max()
s_asym = (hi - lo) / 255
zp = torch.round(-128 - lo / s_asym)
q_asym = (torch.round(x / s_asym) + zp).clamp(-128, 127)
x_asym = (q_asym - zp) * s_asym

print("scale     symmetric", f"{s_sym.item():.5f}", " asymmetric", f"{s_asym.item():.5f}", " zero point", int(zp.item()))
print("codes used symmetric", q_sym.unique().numel(), " asymmetric", q_asym.unique().numel())
for name, x_hat in [("symmetric", x_sym), ("asymmetric", x_asym)]:
    print(f"{name:10s} max error {(x - x_hat).abs().max().item():.5f}   "
          f"mean squared error {((x - x_hat) ** 2).mean().item():.2e}")
# zh: 0.0 恰好落在零点上，反量化后仍是精确的 0（ReLU 的零和填充的零不产生误差）
# en: 0.0 lands exactly on the zero point and dequantizes to exactly 0 (ReLU zeros and padding stay exact).
print("zeros in x:", (x == 0).sum().item(), " exact zeros after asymmetric round trip:", (x_asym[x == 0] == 0).all().item())
