"""Every reader-visible string the build writes, per page language: the one owner of them.

The examples' labels and notices, the verification line, the computation-times page, the notebooks'
headers and their page, the nav's notebook sections, the ``.py`` download's footer, the zips and their
READMEs, the course map, the translation-lag banner, the permalinks' title and ``<html lang>``, the 404
page and the footer's line. Other modules read them here (``tests/render/test_strings.py`` fails on a UI string
table anywhere else); the theme's templates (``docs/overrides``) read the ``page_*`` ones as
``pn_strings(lang)``, a global the plugin gives their Jinja environment (``on_env``). Material's own
strings (the search box, the language menu...) stay Material's (``lang.t``).

Every key exists in every language (a test checks it, and that both use the same placeholders). Keys
ending in ``_one`` are the form for one (``plural``). Placeholders in braces are filled with
``str.format``; every value put into them is escaped by the caller. Chinese strings put a space between
Chinese and Latin text and use full-width punctuation. Standard library only.
"""

from __future__ import annotations

STRINGS: dict[str, dict[str, str]] = {
    "zh": {
        # punctuation between the parts of a sentence: clauses, items of a list, sentences
        "sep_clause": "；",
        "sep_list": "、",
        "sentence_gap": "",  # none after a full-width full stop
        "report": "报告问题",
        "report_body": "页面：{page}\n语言：{lang}\n示例：{example}\n输出捕获于：{facts}\n\n哪里有问题：\n",
        "report_no_outputs": "还没有捕获输出",
        "captured": "输出捕获于",
        "download_py": "下载 .py",
        "download_ipynb": "下载 .ipynb",
        "notebook": "笔记本视图",
        "open_colab": "在 Colab 中打开",
        "open_kaggle": "在 Kaggle 中打开",
        "output": "输出",
        "raised": "预期的异常",
        "failed_cell": "未预期的异常",
        "stderr": "标准错误",
        "output_with_stderr": "输出（标准错误按打印的位置，标为橙色）",
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
        "compare_startup": "。这包括启动 Python、导入 torch 和初始化设备的时间（短示例的大部分时间花在这里），"
                           "不能用来比较设备的快慢。",
        "verified": "本章的 {n} 个示例最近一次运行于 {when}，设备：{devices}。",
        "verified_one": "本章的 1 个示例最近一次运行于 {when}，设备：{devices}。",
        "verified_device": "{name}（torch {versions}）",
        "verified_times": "各示例的运行时间",
        # the computation-times page (render/times.py)
        "times_summary": "各章合计",
        "times_example": "示例",
        "times_chapter": "章节",
        "times_examples": "示例数",
        "times_total": "{device} 总耗时",
        "times_slowest": "{device} 最慢的单元格",
        "times_slowest_help": "用时最长的单元格的耗时和它的编号（第一个单元格为 1）",
        "times_speedup": "加速比",
        "times_speedup_help": "CPU 总耗时 ÷ CUDA 总耗时，只比较两份都没有过期的记录",
        "times_cell": "第 {n} 个单元格",
        "times_stale": "（已过期）",
        "times_stale_help": "示例在这次捕获之后改动过：这个数字不计入合计和加速比",
        "times_missing": "没有这种设备的记录",
        "times_needs_gpu": "这个示例只在 GPU 上运行",
        "times_chapter_total": "本章合计",
        "times_all_total": "全部合计",
        "times_counted": "{total}（计入 {n}/{m} 个示例）",
        "times_open_chapter": "打开本章",
        "times_device": "{device}：{records}，捕获于 {dates}，设备为 {machines}",
        "times_records": "{n} 份记录",
        "times_one_record": "1 份记录",
        "times_device_none": "{device}：没有记录",
        "times_range": "{first} 至 {last}",
        "times_isolation": "隔离方式 {isolation}",
        "times_no_isolation": "未记录隔离方式",
        # "Download all" (site/bundles.py): the links, and the README.txt inside the zips (plain text)
        "bundle_chapter": "下载本章全部 {n} 个示例（.py 与 .ipynb，zip 压缩包）",
        "bundle_chapter_one": "下载本章全部 1 个示例（.py 与 .ipynb，zip 压缩包）",
        "bundle_course": "下载全部示例（zip）",
        # the course as a book (make pdf: book/, site/book.py): the home page's link, the cover, the contents
        "book_pdf": "整门课的 PDF 版",
        "book_built": "根据提交 {commit} 生成于 {date}",
        "book_toc": "目录",
        "bundle_readme_title": "{site} · {title}",
        "bundle_readme_everything": "全部示例",
        "bundle_readme_chapter": "这里是本章的全部 {n} 个示例，和网站上每个示例下方的下载完全相同：每个示例有一个 "
                                 ".py 脚本（注释为中文）和一个 .ipynb 笔记本（带有网站上显示的输出）。",
        "bundle_readme_course": "这里是课程 {chapters} 章的全部 {n} 个示例，每章一个文件夹，和网站上每个示例下方的"
                                "下载完全相同：每个示例有一个 .py 脚本（注释为中文）和一个 .ipynb 笔记本（带有网站上"
                                "显示的输出）。",
        "bundle_readme_examples": "示例：",
        "bundle_readme_chapters": "章节：",
        "bundle_readme_chapter_line": "{folder}  {title}（{n} 个示例）",
        "bundle_readme_site": "网页版：{url}",
        "bundle_readme_run": "运行方法（需要 Python 3.11 或更高版本，以及 PyTorch、NumPy 和 Matplotlib："
                             "pip install torch numpy matplotlib；个别示例还用到别的库，见文件开头的 import）：\n\n"
                             "    cd {folder}\n    python {name}.py\n\n"
                             "也可以用 Jupyter 或 VS Code 打开 .ipynb 文件，逐个运行单元格。",
        "bundle_readme_raises": "有的单元格故意抛出异常来演示错误（网页上标为“预期的异常”）。"
                                ".py 文件把这些单元格放在 try/except 里，打印调用栈后继续运行，行号与网页上的一致；"
                                "在笔记本里，这些单元格带有 raises-exception 标记，“全部运行”会越过它们继续执行。",
        # the course map on the home page (site/coursemap.py)
        "course_map_item": "- [{title}]({src})：{description}。{count}",
        "examples": "{n} 个示例",
        "examples_one": "1 个示例",
        # the notebooks (render/notebook.py): the header cells of an example's and of a chapter's (Markdown)
        "nb_intro": "这是示例 `examples/{rel}` 运行后的笔记本：代码和它真实运行时的输出。",
        "nb_captured": "**输出捕获于**：{facts}。",
        "nb_explained": "正文讲解见[{chapter}]({chapter_url})。",
        "nb_chapter_title": "{chapter} · 笔记本",
        "nb_figure": "笔记本里的一张图",
        "nb_chapter_intro": "这是「{chapter}」一章嵌入的全部 {n} 个示例，按它们在页面上出现的顺序排列："
                            "代码和它们真实运行时的输出。每个示例单独成节，各自从头运行。",
        "nb_section": "示例 `examples/{rel}`。输出捕获于：{facts}。",
        # a chapter notebook's page (site/notebook_view.py, docs/overrides/notebook.html), its nav section (site/nav.py)
        "nb_actions": "下载与章节",
        "nb_actions_ipynb": "下载本章 .ipynb",
        "nb_actions_zip": "下载本章示例 .zip",
        "nb_actions_chapter": "返回章节：{chapter}",
        # make serve: a notebook page while its notebook converts in the background (site/later.py)
        "nb_preparing_title": "正在准备这一页",
        "nb_preparing_text": ("这一章的笔记本视图正在后台生成：`make serve` 先打开网站，再转换笔记本。"
                              "准备好后，这一页会自动刷新。"),
        "nb_nav_section": "示例笔记本",
        # the .py download's footer (render/download.py): each line in every language (both())
        "py_added": "以下几行由网站生成",
        "py_site": "PyTorch 笔记",
        "py_captured": "输出捕获于",
        "py_explained": "讲解",
        # the translation-lag banner (site/lag.py), Markdown; {changed}: the other language's lang_<code>
        "lag_title": "译文可能已过期",
        "lag_body": "{changed}版在上次同步之后改过，这一页可能还没跟上。"
                    "请以<a href=\"{url}\">{changed}版</a>为准；也欢迎帮忙更新本页。",
        "lag_both_title": "两种语言的版本可能不一致",
        "lag_both_body": "这一页的中文版和英文版在上次同步之后都改过，内容可能还没对齐。",
        "lang_zh": "中文",
        "lang_en": "英文",
        # every page (site/i18n.py): <html lang>, the title of the headings' permalinks
        "html_lang": "zh-CN",
        "permalink": "固定链接",
        # the theme's templates (docs/overrides: 404.html, partials/copyright.html), HTML
        "page_404_title": "404：页面不存在",
        "page_404_body": "这个地址上没有页面。它可能已经改名或移走，也可能是链接写错了。",
        "page_404_home": '<a href="{home}">回到首页</a>，看看课程地图，或者用上方的搜索框找一找。',
        "page_made_with": "本站使用 {material} 构建",
    },
    "en": {
        "sep_clause": "; ",
        "sep_list": ", ",
        "sentence_gap": " ",
        "report": "Report a problem",
        "report_body": "Page: {page}\nLanguage: {lang}\nExample: {example}\nOutputs captured on: {facts}\n\n"
                       "What is wrong:\n",
        "report_no_outputs": "no outputs captured",
        "captured": "Captured on",
        "download_py": "Download .py",
        "download_ipynb": "Download .ipynb",
        "notebook": "Notebook view",
        "open_colab": "Open in Colab",
        "open_kaggle": "Open in Kaggle",
        "output": "Output",
        "raised": "Expected exception",
        "failed_cell": "Unexpected exception",
        "stderr": "stderr",
        "output_with_stderr": "Output (stderr where it was printed, in orange)",
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
        "compare_startup": ". These include starting Python, importing torch and initialising the device (most of "
                           "a short example's time), so they do not compare the devices' speed.",
        "verified": "The {n} examples of this chapter were last run on {when}, on {devices}.",
        "verified_one": "The example of this chapter was last run on {when}, on {devices}.",
        "verified_device": "{name} (torch {versions})",
        "verified_times": "Run times of each example",
        # the computation-times page (render/times.py)
        "times_summary": "Chapter totals",
        "times_example": "Example",
        "times_chapter": "Chapter",
        "times_examples": "Examples",
        "times_total": "{device} total",
        "times_slowest": "{device} slowest cell",
        "times_slowest_help": "The time of the cell that took longest, and its number (the first cell is 1)",
        "times_speedup": "Speed-up",
        "times_speedup_help": "CPU total ÷ CUDA total, only where neither record is out of date",
        "times_cell": "cell {n}",
        "times_stale": " (out of date)",
        "times_stale_help": "The example changed since this capture: the number counts in no total or speed-up",
        "times_missing": "No record on this device",
        "times_needs_gpu": "This example runs on a GPU only",
        "times_chapter_total": "Chapter total",
        "times_all_total": "All chapters",
        "times_counted": "{total} ({n} of {m} examples)",
        "times_open_chapter": "Go to the chapter",
        "times_device": "{device}: {records} captured {dates}, on {machines}",
        "times_records": "{n} records",
        "times_one_record": "1 record",
        "times_device_none": "{device}: no records",
        "times_range": "{first} to {last}",
        "times_isolation": "isolation {isolation}",
        "times_no_isolation": "isolation not recorded",
        # "Download all" (site/bundles.py): the links, and the README.txt inside the zips (plain text)
        "bundle_chapter": "Download all {n} examples of this chapter (.py and .ipynb, zip)",
        "bundle_chapter_one": "Download the example of this chapter (.py and .ipynb, zip)",
        "bundle_course": "Download all examples (zip)",
        # the course as a book (make pdf: book/, site/book.py): the home page's link, the cover, the contents
        "book_pdf": "The whole course as a PDF",
        "book_built": "Made on {date} from commit {commit}",
        "book_toc": "Contents",
        "bundle_readme_title": "{site} · {title}",
        "bundle_readme_everything": "All examples",
        "bundle_readme_chapter": "These are the {n} examples of this chapter, the same files as the downloads under "
                                 "each example on the site: for each example a .py script (comments in English) and a "
                                 ".ipynb notebook (with the outputs the site shows).",
        "bundle_readme_course": "These are all {n} examples of the course's {chapters} chapters, one folder per "
                                "chapter, the same files as the downloads under each example on the site: for each "
                                "example a .py script (comments in English) and a .ipynb notebook (with the outputs "
                                "the site shows).",
        "bundle_readme_examples": "Examples:",
        "bundle_readme_chapters": "Chapters:",
        "bundle_readme_chapter_line": "{folder}  {title} ({n} examples)",
        "bundle_readme_site": "On the web: {url}",
        "bundle_readme_run": "To run them (Python 3.11 or newer, with PyTorch, NumPy and Matplotlib: "
                             "pip install torch numpy matplotlib; a few examples use another library, see the "
                             "imports at the top of the file):\n\n"
                             "    cd {folder}\n    python {name}.py\n\n"
                             "or open a .ipynb file in Jupyter or VS Code and run its cells in order.",
        "bundle_readme_raises": "Some cells raise an exception on purpose, to show an error (marked \"Expected "
                                "exception\" on the site). In the .py files they sit in try/except, which prints the "
                                "traceback and goes on, with the line numbers of the site. In the notebooks these "
                                "cells are tagged raises-exception, so \"Run all\" goes on past them.",
        # the course map on the home page (site/coursemap.py)
        "course_map_item": "- [{title}]({src}): {description}. {count}",
        "examples": "{n} examples",
        "examples_one": "1 example",
        "nb_intro": "The executed notebook of the example `examples/{rel}`: its code and the outputs of a real run.",
        "nb_captured": "**Outputs captured on**: {facts}.",
        "nb_explained": "It is explained in [{chapter}]({chapter_url}).",
        "nb_chapter_title": "{chapter} · notebook",
        "nb_figure": "A figure of the notebook",
        "nb_chapter_intro": "The {n} examples that the chapter “{chapter}” embeds, in the order of the page: their "
                            "code and the outputs of a real run. Each example is a section of its own and runs from "
                            "its start.",
        "nb_section": "The example `examples/{rel}`. Outputs captured on: {facts}.",
        "nb_actions": "Downloads and chapter",
        "nb_actions_ipynb": "Download the chapter's .ipynb",
        "nb_actions_zip": "Download the chapter's examples (.zip)",
        "nb_actions_chapter": "Back to the chapter: {chapter}",
        "nb_preparing_title": "Being prepared",
        "nb_preparing_text": ("This chapter's notebook view is being made in the background: `make serve` opens "
                              "the site first and converts the notebooks after. This page reloads by itself "
                              "when it is ready."),
        "nb_nav_section": "Example notebooks",
        "py_added": "The lines below were added by the site.",
        "py_site": "PyTorch Notes",
        "py_captured": "Outputs captured on",
        "py_explained": "Explained",
        "lag_title": "This translation may be out of date",
        "lag_body": "The {changed} version changed after this page was last synced with it. "
                    "When in doubt, read the <a href=\"{url}\">{changed} version</a>, or help update this page.",
        "lag_both_title": "The two languages may disagree",
        "lag_both_body": "Both the Chinese and the English version of this page changed since they were last synced.",
        "lang_zh": "Chinese",
        "lang_en": "English",
        "html_lang": "en",
        "permalink": "Permanent link",
        "page_404_title": "404: page not found",
        "page_404_body": "There is no page at this address. It may have been renamed or moved, or the link is "
                         "wrong.",
        "page_404_home": '<a href="{home}">Go to the home page</a> for the course map, or use the search box '
                         "above.",
        "page_made_with": "Made with {material}",
    },
}


def ui(lang: str) -> dict[str, str]:
    """The strings of ``lang``; English for a language the site has no strings for."""
    return STRINGS.get(lang, STRINGS["en"])


def plural(t: dict[str, str], key: str, n: int) -> str:
    """``t[key + "_one"]`` when ``n`` is 1 (when ``t`` has that form), else ``t[key]``."""
    return t.get(key + "_one", t[key]) if n == 1 else t[key]


def both(key: str) -> str:
    """``key``'s string in every language, joined by `` · `` (the ``.py`` download serves every reader)."""
    return " · ".join(t[key] for t in STRINGS.values())
