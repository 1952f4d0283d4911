# %%
import torch


def shares_memory(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


x = torch.arange(24.0).reshape(2, 3, 4).clone()
# zh: 先写下预测：True 表示视图（共享内存），False 表示拷贝
# en: Predictions first: True for a view (shared memory), False for a copy.
predictions = {
    "x[:, 1]": (lambda: x[:, 1], True),
    "x[:, [1]]": (lambda: x[:, [1]], False),
    "x.permute(2, 0, 1)": (lambda: x.permute(2, 0, 1), True),
    "x.permute(2, 0, 1).reshape(-1)": (lambda: x.permute(2, 0, 1).reshape(-1), False),
    "x.reshape(6, 4)": (lambda: x.reshape(6, 4), True),
    "x.flatten(0, 1)": (lambda: x.flatten(0, 1), True),
    "x.mT.flatten(0, 1)": (lambda: x.mT.flatten(0, 1), False),
    "x.squeeze(0)": (lambda: x.squeeze(0), True),
    "x.to(torch.float32)": (lambda: x.to(torch.float32), True),
    "x.to(torch.int32)": (lambda: x.to(torch.int32), False),
}
for name, (op, predicted) in predictions.items():
    got = shares_memory(op(), x)
    assert got == predicted, name
    print(f"{name:34} {'view' if got else 'copy'}")

# %%
# zh: 再用写入验证：改视图会改到 x，改拷贝不会
# en: Confirm by writing: changing a view changes x, changing a copy does not.
for name, (op, predicted) in predictions.items():
    y = op()
    before = x.clone()
    y[(0,) * y.dim()] += 1000  # zh: 写 y 的第一个元素 | en: write y's first element
    assert (not torch.equal(x, before)) == predicted, name
    x.copy_(before)
print("writes agree with every prediction")

# %%
# zh: “不连续”不等于“reshape 一定复制”：要合并的几维步长衔接得上，仍然是视图
# en: Non-contiguous does not mean reshape must copy: if the merged dims' strides line up, it is still a view.
p = x.permute(2, 0, 1)
print("p.stride():", p.stride(), " contiguous:", p.is_contiguous())
print("p.reshape(4, 6) shares memory:", shares_memory(p.reshape(4, 6), x))
