# %%
import os
import subprocess
import sys

# zh: 从一组词建词表：词 → 编号。编号的顺序取决于 set 的迭代顺序
# en: Build a vocabulary from some words: word → index. The indices follow the set's iteration order.
child = """
words = "the cat sat on the mat with a dog".split()
print("  list(set(words)):  ", list(set(words)))
print("  sorted(set(words)):", sorted(set(words)))
"""


def fresh_process(hashseed):
    print(f"a fresh process with PYTHONHASHSEED={hashseed}:")
    env = dict(os.environ, PYTHONHASHSEED=hashseed)
    print(subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, check=True).stdout, end="")


print("PYTHONHASHSEED in this process:", os.environ.get("PYTHONHASHSEED"))

# %% volatile=true
# zh: "random" 是 Python 的默认行为：每个进程的字符串哈希都不同
# en: "random" is Python's default: string hashes differ in every process.
fresh_process("random")
fresh_process("random")

# %%
fresh_process("0")
fresh_process("0")
