# %%
from torch import nn

for name in ["Liner", "ReLu", "flatten"]:  # zh: 笔记里的拼写 | en: spellings used in the notes
    try:
        getattr(nn, name)
    except AttributeError as e:
        print(f"nn.{name}: AttributeError: {e}")

# %%
for name in ["Linear", "ReLU", "Flatten"]:
    print(f"nn.{name}:", getattr(nn, name))
