# %%
import torch
from torch.distributions import Categorical

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 策略网络的原始输出是 logits：可正可负，和也不是 1
# en: a policy network's raw outputs are logits: any sign, not summing to 1
logits = torch.tensor([1.5, -0.2, 0.3], device=device)

# %% raises="ValueError"
# zh: 把 logits 当成概率传给 probs=
# en: the logits passed as probabilities, probs=
Categorical(probs=logits)

# %%
dist = Categorical(logits=logits)  # zh: logits= 内部做 softmax | en: logits= applies softmax itself
print("probs:", dist.probs)
print("same as softmax:", torch.allclose(dist.probs, torch.softmax(logits, dim=-1)))

# %% raises="ValueError"
# zh: 训练发散时网络输出 nan：这次报错点名的是 logits
# en: a diverged network outputs nan: this time the message names logits
Categorical(logits=torch.tensor([float("nan"), 0.0, 0.0], device=device))
