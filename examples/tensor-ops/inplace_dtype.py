# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.arange(3, device=device)  # zh: 整数，int64 | en: integers: int64
# zh: 不是就地操作时，结果是一个新张量，类型提升成 float32
# en: Out of place, the result is a new tensor, promoted to float32.
print(x.dtype, "->", (x + 0.5).dtype, (x + 0.5).tolist())

# %% raises="RuntimeError"
x += 0.5  # zh: 就地操作：结果要写回 int64 的 x | en: in place: the result must go back into the int64 x

# %% raises="RuntimeError"
# zh: 图片常以 uint8 读入；就地除以 255 也一样
# en: Images often load as uint8; dividing by 255 in place fails the same way.
img = torch.tensor([0, 128, 255], dtype=torch.uint8, device=device)
img /= 255

# %%
# zh: 下标赋值不报错，却悄悄截断了小数
# en: Index assignment raises nothing, but silently drops the fraction.
x[0] = 0.7
print(x.tolist())

# %%
# zh: 修正：不就地写，或者先转换成浮点类型
# en: The fix: do not write in place, or convert to a floating type first.
x = torch.arange(3, device=device)
x = x + 0.5
print(x.dtype, x.tolist())
img = img.float() / 255
print(img.dtype, img.tolist())
