# %%
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
# zh: 4 个样本、3 个类别的 logits，以及真实标签
# en: Logits for 4 samples and 3 classes, and the true labels.
logits = torch.tensor([[2.0, 0.5, -1.0],
                       [0.1, 0.3, 0.2],
                       [-0.5, -0.2, 1.5],
                       [1.0, 1.2, 0.9]], device=device)
labels = torch.tensor([0, 2, 2, 0], device=device)

pred = logits.argmax(dim=1)
print("predicted classes:", pred.tolist())
# zh: 手算：每行最大值在第 0、1、2、1 列
# en: By hand: each row's largest value is in column 0, 1, 2, 1.
assert pred.tolist() == [0, 1, 2, 1]

correct = (pred == labels)
print("correct:", correct.tolist(), " accuracy:", correct.float().mean().item())
assert correct.float().mean().item() == 0.5

# %%
# zh: max(dim=1) 的 values 就是按 argmax 的下标 gather 出来的值
# en: max(dim=1).values are exactly the values gathered at the argmax indices.
values, indices = logits.max(dim=1)
gathered = logits.gather(1, pred.unsqueeze(1)).squeeze(1)
print("max values:", values.tolist())
print("indices equal argmax:", torch.equal(indices, pred), " gather equals values:", torch.equal(gathered, values))

# %%
# zh: 模型给真实类别的概率：softmax 之后按标签 gather
# en: The probability the model gives the true class: softmax, then gather at the labels.
p_true = logits.softmax(dim=1).gather(1, labels.unsqueeze(1)).squeeze(1)
print("p(true class):", [round(p, 4) for p in p_true.tolist()])
loss = -p_true.log().mean()
print(f"mean -log p(true): {loss.item():.4f}  cross_entropy: {torch.nn.functional.cross_entropy(logits, labels).item():.4f}")
assert torch.allclose(loss, torch.nn.functional.cross_entropy(logits, labels))
