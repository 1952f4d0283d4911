# %%
import torch


def describe_build():
    # zh: torch.version.cuda / torch.version.hip 至多一个不是 None
    # en: At most one of torch.version.cuda / torch.version.hip is set.
    if torch.version.cuda is not None:
        return f"CUDA {torch.version.cuda}"
    if torch.version.hip is not None:
        return f"ROCm (HIP {torch.version.hip})"
    return "no CUDA or ROCm (CPU, or MPS on a Mac)"


print("build:", describe_build())

# %%
# zh: 和版本号的本地标签互相印证
# en: Cross-check with the local tag of the version.
local = torch.__version__.partition("+")[2]
print("local tag:", local or "(none)")
if local == "cpu":
    assert torch.version.cuda is None and torch.version.hip is None
if local.startswith("cu"):
    assert torch.version.cuda is not None
    assert local == "cu" + torch.version.cuda.replace(".", "")
if local.startswith("rocm"):
    assert torch.version.hip is not None
print("the local tag and torch.version agree")
