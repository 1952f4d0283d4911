# %%
import torch

torch.manual_seed(0)
logits = torch.tensor([2.0, 0.5, -1.0])  # zh: 模型给 3 个类别的打分 | en: a model's scores for 3 classes
probs = torch.softmax(logits, dim=-1)
print("softmax:", probs)
print("5 draws:", torch.multinomial(probs, 5, replacement=True))
print("weights need not sum to 1:", torch.multinomial(torch.tensor([1.0, 0.0, 3.0]), 5, replacement=True))

# %% raises="RuntimeError"
# zh: 想用温度 0 表示“贪心”：logits / 0 得到 inf，softmax 之后变成 nan
# en: Temperature 0 meant as "greedy": logits / 0 gives inf, and softmax turns it into nan.
temperature = 0.0
probs = torch.softmax(logits / temperature, dim=-1)
print("probs:", probs)
torch.multinomial(probs, 1)

# %%
# zh: 负数同样不行：忘了 softmax，直接把 logits 当成概率
# en: Negative entries fail too: the logits passed as probabilities, softmax forgotten.
try:
    torch.multinomial(logits, 1)
except RuntimeError as e:
    print("multinomial(logits):", e)
# zh: 整行都被掩码成 -inf 时，softmax 的结果也是 nan
# en: A row masked entirely with -inf is nan after softmax as well.
print("softmax of all -inf:", torch.softmax(torch.full((3,), float("-inf")), dim=-1))


# %%
# zh: 改法：先检查 logits 是否有限；温度 0 直接取 argmax；只从 softmax 的结果采样
# en: Fixes: check that the logits are finite; temperature 0 means argmax; sample only from softmax's output.
def sample(logits, temperature):
    if not torch.isfinite(logits).all():
        raise ValueError(f"non-finite logits {logits}: the problem is upstream")
    if temperature == 0:
        return logits.argmax(dim=-1, keepdim=True)
    return torch.multinomial(torch.softmax(logits / temperature, dim=-1), 1)


print("temperature 0:", sample(logits, 0.0))
print("temperature 1:", sample(logits, 1.0))
