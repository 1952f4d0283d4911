# %%
import copy
import logging
import math
import os

# zh: torch 的 pytree 和 torchao 在导入 peft 时会各打一条与本例无关的日志：在源头把它们调成只报错误
# en: Importing peft makes torch's pytree and torchao log a line each that has nothing to do with this example:
# en: turn them down to errors only, at their source.
logging.getLogger("torch.utils._pytree").setLevel(logging.ERROR)
logging.getLogger("torchao").setLevel(logging.ERROR)

import torch
import torch.nn.functional as F
from peft import LoraConfig, PeftModel, get_peft_model
from torch import nn

torch.manual_seed(0)
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3 = nn.Linear(64, 256), nn.Linear(256, 256), nn.Linear(256, 10)

    def forward(self, x):
        return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.A = nn.Parameter(torch.empty(r, base.in_features, device=base.weight.device))
        self.B = nn.Parameter(torch.zeros(base.out_features, r, device=base.weight.device))
        nn.init.kaiming_uniform_(self.A, a=math.sqrt(5))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + self.scale * (x @ self.A.T @ self.B.T)


base = MLP().to(device)
config = LoraConfig(r=4, lora_alpha=16, target_modules=["fc1", "fc2", "fc3"])  # zh: 按模块名选要套 LoRA 的层 | en: pick the layers to wrap by module name
model = get_peft_model(copy.deepcopy(base), config)  # zh: 会就地改动传进去的模型，所以给它一份拷贝 | en: it modifies the model it is given in place, so give it a copy
model.print_trainable_parameters()

hand = copy.deepcopy(base)
for name in ["fc1", "fc2", "fc3"]:
    setattr(hand, name, LoRALinear(getattr(hand, name), r=4, alpha=16))
print("hand-written LoRA, trainable:", sum(p.numel() for p in hand.parameters() if p.requires_grad),
      " all:", sum(p.numel() for p in hand.parameters()))

# %%
fc1 = model.base_model.model.fc1  # zh: PeftModel -> LoraModel -> 原来的 MLP | en: PeftModel -> LoraModel -> the original MLP
print(type(fc1).__module__ + "." + type(fc1).__name__, " base_layer:", fc1.base_layer)
print("lora_A:", fc1.lora_A["default"], " lora_B:", fc1.lora_B["default"], " scaling:", fc1.scaling["default"])
x = torch.randn(256, 64, device=device)
print("starts equal to the base model:", torch.equal(model(x), base(x)), " lora_B all zero:", bool((fc1.lora_B["default"].weight == 0).all()))

# %%
# zh: 训练几步（随便一个回归目标），再把 peft 的 A、B 抄进手写版：输出应该一样
# en: Train a few steps (on some regression target), then copy peft's A and B into the hand-written version: the outputs should agree.
target = torch.randn(256, 10, device=device)
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
for _step in range(20):
    loss = F.mse_loss(model(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
with torch.no_grad():
    for name in ["fc1", "fc2", "fc3"]:
        layer = getattr(model.base_model.model, name)
        getattr(hand, name).A.copy_(layer.lora_A["default"].weight)
        getattr(hand, name).B.copy_(layer.lora_B["default"].weight)
    out = model(x)
    print(f"peft vs hand-written after training, max abs difference: {(out - hand(x)).abs().max().item():.1e}")

# %%
# zh: 只存适配器：一个目录，里面的权重文件只有几 KB
# en: Save the adapter alone: one directory whose weight file is a few KB.
model.save_pretrained("adapter")
print({f: os.path.getsize(os.path.join("adapter", f)) for f in sorted(os.listdir("adapter"))})
loaded = PeftModel.from_pretrained(copy.deepcopy(base), "adapter")  # zh: 基础模型 + 适配器 | en: base model + adapter
with torch.no_grad():
    print("reloaded adapter gives the same outputs:", torch.equal(loaded(x), out))

# %%
# zh: 合并并卸掉 LoRA：得到原来那种普通的 MLP
# en: Merge and unload LoRA: back to a plain MLP of the original kind.
merged = model.merge_and_unload()
print(type(merged).__name__, merged.fc1, " parameters:", sum(p.numel() for p in merged.parameters()))
with torch.no_grad():
    print(f"merged vs before merging, max abs difference: {(merged(x) - out).abs().max().item():.1e}")
