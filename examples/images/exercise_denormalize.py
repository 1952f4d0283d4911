# %%
import numpy as np
import torch
from sklearn.datasets import load_sample_images

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: flower.jpg，uint8，CHW
# en: flower.jpg, uint8, CHW.
original = torch.from_numpy(np.array(load_sample_images().images[1])).permute(2, 0, 1).to(device)
mean = torch.tensor([0.485, 0.456, 0.406], device=device).view(-1, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225], device=device).view(-1, 1, 1)

x = original.float() / 255
z = (x - mean) / std  # zh: Normalize | en: Normalize


def denormalize(z):
    return z * std + mean  # zh: 反过来：先乘 std 再加 mean | en: the inverse: multiply by std, then add mean


back = denormalize(z)
print(f"max |denormalize(z) - x|: {(back - x).abs().max().item():.1e}")

# %%
# zh: 变回 uint8：要先四舍五入；直接 .to(torch.uint8) 是截断
# en: Back to uint8: round first; a bare .to(torch.uint8) truncates.
rounded = (back * 255).round().clamp(0, 255).to(torch.uint8)
truncated = (back * 255).clamp(0, 255).to(torch.uint8)
print("rounded   equals the original:", torch.equal(rounded, original))
print("truncated equals the original:", torch.equal(truncated, original))
diff = original.int() - truncated.int()
print(f"truncated: {(diff != 0).sum().item()} of {original.numel()} values differ, by at most {diff.abs().max().item()}")
