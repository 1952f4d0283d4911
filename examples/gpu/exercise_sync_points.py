# /// example
# requires = ["cuda"]
# ///
# %% warns="UserWarning"
import torch

torch.manual_seed(0)
x = torch.randn(1000, device="cuda")
mask = x > 0

# zh: 同步调试模式设为 "error"：任何让 CPU 等 GPU 的操作都会报错，于是能逐个试出来
# en: Sync debug mode "error": any operation that makes the CPU wait for the GPU raises, so each can be tested.
candidates = {
    "x.sum()": lambda: x.sum(),
    "x * 2 + 1": lambda: x * 2 + 1,
    "x.sum().item()": lambda: x.sum().item(),
    "x.cpu()": lambda: x.cpu(),
    "x[mask]": lambda: x[mask],
    "torch.nonzero(x)": lambda: torch.nonzero(x),
    "torch.where(mask, x, 0)": lambda: torch.where(mask, x, 0),
    "x.max()": lambda: x.max(),
    "if x.sum() > 0": lambda: bool(x.sum() > 0),
    "x.to('cuda')": lambda: x.to("cuda"),
    "torch.tensor([1.0], device='cuda')": lambda: torch.tensor([1.0], device="cuda"),
}
torch.cuda.set_sync_debug_mode("error")
try:
    for name, fn in candidates.items():
        try:
            fn()
            verdict = "stays on the GPU"
        except RuntimeError:
            verdict = "SYNCHRONISES"
        print(f"{name:38} {verdict}")
finally:
    torch.cuda.set_sync_debug_mode("default")
