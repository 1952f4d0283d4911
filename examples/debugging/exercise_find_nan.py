# %%
import torch

logits = torch.tensor([[8.0, 0.0, -120.0]], requires_grad=True)
target = torch.tensor([[1.0, 0.0, 0.0]])  # zh: 独热编码 | en: one-hot


def naive_loss(logits):
    probs = torch.softmax(logits, dim=1)
    return -(target * torch.log(probs)).sum()


print("probs:", torch.softmax(logits, dim=1).detach())
print("loss:", naive_loss(logits).item())

# %% raises="RuntimeError" warns="UserWarning"
with torch.autograd.set_detect_anomaly(True):
    naive_loss(logits).backward()

# %%
# zh: log_softmax 不会算出 log(0)；cross_entropy 内部用它，并直接接受类别下标
# en: log_softmax never forms log(0); cross_entropy uses it and takes class indices
loss = torch.nn.functional.cross_entropy(logits, target.argmax(dim=1))
loss.backward()
print("loss:", round(loss.item(), 6), " grad:", logits.grad)
