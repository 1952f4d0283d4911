"""The UI strings of rendered examples, per page language (one owner for them).

Placeholders in braces are filled with ``str.format``; every value put into them is escaped by the
caller. Standard library only.
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        "report": "报告问题",
        "captured": "输出捕获于",
        "download_py": "下载 .py",
        "download_ipynb": "下载 .ipynb",
        "notebook": "笔记本视图",
        "output": "输出",
        "raised": "预期的异常",
        "failed_cell": "未预期的异常",
        "stderr": "标准错误",
        "figure": "图 {n}：{example} 第 {cell} 个单元格的输出",
        "full_size": "查看原图",
        "long_output": "共 {lines} 行输出，点击展开",
        "stale_title": "输出已过期",
        "stale": "这个示例在上次捕获之后改动过。改动过的单元格暂无输出，其余显示上次捕获的结果。"
                 "运行 <code>make capture</code> 重新捕获。",
        "stale_tab": "（已过期）",
        "missing_title": "尚无输出",
        "missing": "这个示例还没有捕获过输出。运行 <code>make capture</code> 来捕获。",
        "missing_cuda": "这个示例需要 GPU，还没有在 GPU 上捕获过输出。",
        "failed_title": "重新捕获失败",
        "failed": "下面是上次成功运行的输出。最近一次捕获失败：",
        "provenance_help": "捕获时间（UTC）：{when}；平台：{platform}；源码 SHA-256：{sha}",
        "provenance_isolation": "；隔离方式：{isolation}",
        "figure_refused": "这张图未显示：存储的数据不是限定大小以内的 PNG 图片。",
        "compare": "整个示例的运行时间：{parts}",
        "compare_ratio": "（{slow} 用时是 {fast} 的 {ratio:.1f} 倍）",
        "verified": "本章的 {n} 个示例最近一次运行于 {when}，设备：{devices}。",
        "verified_old": "其中 {old} 个示例的输出是用 torch {versions} 捕获的，早于本项目固定的 torch {pinned}。",
    },
    "en": {
        "report": "Report a problem",
        "captured": "Captured on",
        "download_py": "Download .py",
        "download_ipynb": "Download .ipynb",
        "notebook": "Notebook view",
        "output": "Output",
        "raised": "Expected exception",
        "failed_cell": "Unexpected exception",
        "stderr": "stderr",
        "figure": "Figure {n}: output of cell {cell} of {example}",
        "full_size": "Open full size",
        "long_output": "{lines} lines of output; click to expand",
        "stale_title": "Outputs out of date",
        "stale": "This example changed since it was last captured. Changed cells show no output; the others "
                 "show the last capture. Run <code>make capture</code> to refresh.",
        "stale_tab": " (out of date)",
        "missing_title": "No outputs yet",
        "missing": "This example has never been captured. Run <code>make capture</code>.",
        "missing_cuda": "This example needs a GPU and has not been captured on one yet.",
        "failed_title": "Re-capture failed",
        "failed": "Below is the output of the last good run. The latest capture failed:",
        "provenance_help": "Captured at (UTC): {when}; platform: {platform}; source SHA-256: {sha}",
        "provenance_isolation": "; isolation: {isolation}",
        "figure_refused": "This figure is not shown: its stored data is not a PNG image within the size limits.",
        "compare": "Run time of the whole example: {parts}",
        "compare_ratio": " ({slow} took {ratio:.1f}× as long as {fast})",
        "verified": "The {n} examples of this chapter were last run on {when}, on {devices}.",
        "verified_old": "The outputs of {old} of them were captured with torch {versions}, older than the "
                        "torch {pinned} this project pins.",
    },
}
