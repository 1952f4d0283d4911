# %% caption_zh="广播：大小为 1 的维度被拉伸到相同大小（浅色格子并不实际存储）；缺少的前导维度当作 1，再被拉伸"
import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle


def draw(ax, x0, shape, real, color, label):
    # zh: 画一个网格：实际存在的格子用实色，拉伸出来的格子用浅色虚线
    # en: Draw a grid: real cells solid, stretched cells pale and dashed.
    rows, cols = shape
    for r in range(rows):
        for c in range(cols):
            is_real = (r, c) in real
            ax.add_patch(Rectangle((x0 + c, -r - 1), 1, 1, facecolor=color,
                                   alpha=0.9 if is_real else 0.25, edgecolor="black",
                                   linestyle="-" if is_real else "--"))
    ax.text(x0 + cols / 2, 0.4, label, ha="center", fontsize=10)


fig, axes = plt.subplots(2, 1, figsize=(8, 5.5))

# zh: 上图：(3, 1) + (1, 4) -> (3, 4)
# en: Top: (3, 1) + (1, 4) -> (3, 4)
ax = axes[0]
draw(ax, 0, (3, 4), {(r, 0) for r in range(3)}, "tab:blue", "a: (3, 1)")
ax.text(4.75, -1.5, "+", fontsize=18, ha="center", va="center")
draw(ax, 5.5, (3, 4), {(0, c) for c in range(4)}, "tab:orange", "b: (1, 4)")
ax.text(10.25, -1.5, "=", fontsize=18, ha="center", va="center")
draw(ax, 11, (3, 4), {(r, c) for r in range(3) for c in range(4)}, "tab:green", "a + b: (3, 4)")
ax.set_title("A dim of size 1 stretches to match (pale cells are not stored)")

# zh: 下图：(3, 4) + (4,)：(4,) 先补成 (1, 4)，再拉伸
# en: Bottom: (3, 4) + (4,): (4,) becomes (1, 4), then stretches.
ax = axes[1]
draw(ax, 0, (3, 4), {(r, c) for r in range(3) for c in range(4)}, "tab:blue", "m: (3, 4)")
ax.text(4.75, -1.5, "+", fontsize=18, ha="center", va="center")
draw(ax, 5.5, (3, 4), {(0, c) for c in range(4)}, "tab:orange", "v: (4,) -> (1, 4)")
ax.text(10.25, -1.5, "=", fontsize=18, ha="center", va="center")
draw(ax, 11, (3, 4), {(r, c) for r in range(3) for c in range(4)}, "tab:green", "m + v: (3, 4)")
ax.set_title("A missing leading dim counts as 1, then stretches")

for ax in axes:
    ax.set_xlim(-0.5, 15.5)
    ax.set_ylim(-3.5, 1)
    ax.set_aspect("equal")
    ax.axis("off")
fig.tight_layout()
plt.show()
