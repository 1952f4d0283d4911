"""Stage 4: device tabs, the output-kind registry, and untrusted text in every place it appears.

Records here are made up (a fixture tree); ``examples/_outputs/`` holds only real captures.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing

import pytest
from pytorch_notes.capture.check import comparable
from pytorch_notes.parse import parse_example
from pytorch_notes.render.html import Links, device_label, render_example
from pytorch_notes.render.kinds import KINDS, LONG_OUTPUT_LINES, Context, example_traceback
from pytorch_notes.render.notebook import build_notebook
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.store import model
from pytorch_notes.store.model import Display, Error, Stream
from pytorch_notes.store.records import freshness
from test_render import to_html
from test_store import fake_record, put

LINKS = Links(py="../examples/ch/ex.py", ipynb="../notebooks/ch/ex.ipynb", notebook="../notebooks/ch/#expy")
SOURCE = "# %%\nimport torch\nprint(torch.ones(2))\n"


def two_devices(write_example, examples_dir, source=SOURCE, cuda_key=None):
    ex = parse_example(write_example("ch/ex.py", source), examples_dir)
    put(examples_dir, fake_record(ex, "cpu", "on the cpu\n"), "cpu")
    gpu = fake_record(ex, "cuda", "on the gpu\n")
    gpu["provenance"]["duration_s"] = 0.5
    if cuda_key:
        gpu["key"] = cuda_key
    put(examples_dir, gpu, "cuda")
    return ex


def test_an_example_with_two_device_records_gets_a_tab_per_device_gpu_first(write_example, examples_dir):
    ex = two_devices(write_example, examples_dir)
    md, _ = render_example(ex, freshness(ex, examples_dir), "zh", str, LINKS)
    tabs = re.findall(r'^=== "([^"]+)"$', md, re.M)
    assert tabs == ["NVIDIA H100 · CUDA 13.0", "CPU"]
    page = to_html(md)
    assert page.count('class="tabbed-set') == 1 and page.index("on the gpu") < page.index("on the cpu")
    assert page.count('class="pn-provenance"') == 2 and "NVIDIA H100 80GB HBM3 · torch 2.11.0+cu130" in page
    assert ("整个示例的运行时间：NVIDIA H100 · CUDA 13.0 0.50 s · CPU 1.50 s。这包括启动 Python、导入 torch 和"
            "初始化设备的时间") in page and "倍" not in page, "no ratio of two start-up times"
    assert re.search(r'pn-output__time">0\.01 s', page), "per-cell durations"


def test_a_stale_record_is_never_the_default_tab_and_says_so(write_example, examples_dir):
    ex = two_devices(write_example, examples_dir, cuda_key="0" * 16)
    md, _ = render_example(ex, freshness(ex, examples_dir), "en", str, LINKS)
    assert re.findall(r'^=== "([^"]+)"$', md, re.M) == ["CPU", "NVIDIA H100 · CUDA 13.0 (out of date)"]
    sections = re.findall(r'<section class="pn-device" data-pn-device="(\d)"[^>]*>(.*?)</section>', md, re.S)
    assert [n for n, text in sections if "Outputs out of date" in text] == ["2"], "in the GPU's sections only"


def test_one_record_shows_no_tabs(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, fake_record(ex, "cpu"), "cpu")
    md, _ = render_example(ex, freshness(ex, examples_dir), "en", str, LINKS)
    assert "===" not in md and "pn-compare" not in md


@pytest.mark.parametrize("name, label", [("NVIDIA H100 80GB HBM3", "NVIDIA H100 · CUDA 13.0"),
                                         ("NVIDIA H200", "NVIDIA H200 · CUDA 13.0")])
def test_device_labels(write_example, examples_dir, name, label):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    data = fake_record(ex, "cuda")
    data["provenance"]["device"] = name
    assert device_label(model.load(model.Record, data)) == label


def test_every_output_kind_of_the_model_has_a_registry_entry():
    kinds = set(typing.get_args(model.Output))
    assert kinds == set(KINDS), "add the kind to render/kinds.py KINDS (HTML, nbformat, --check)"
    for cls, kind in KINDS.items():
        assert dataclasses.is_dataclass(cls) and callable(kind.html) and callable(kind.nbformat)


def test_text_html_results_are_sanitised_not_dropped():
    out = Display({"text/plain": "frame", "text/html": '<table><tr><td onclick="x()">1</td></tr></table>'
                                                       '<script>alert(1)</script><img src=x onerror=alert(1)>'})
    shown = KINDS[Display].html(out, Context(STRINGS["en"]))
    assert "<table>" in shown and "<td>1</td>" in shown
    assert "<script" not in shown and "onerror" not in shown and "onclick" not in shown
    nb = KINDS[Display].nbformat(out, Context(STRINGS["en"], execution_count=3))
    assert "<script" not in "".join(nb["data"]["text/html"])


def test_exceptions_show_the_example_frames_then_the_message_collapsible():
    tb = ('Traceback (most recent call last):\n  File "examples/ch/ex.py", line 3, in <module>\n    f()\n'
          '  File "site-packages/torch/_tensor.py", line 9, in f\n    raise X\nRuntimeError: boom\nhint: do y\n')
    err = Error("RuntimeError", "boom\nhint: do y", tb, 3, expected=True)
    assert example_traceback(err, "examples/ch/ex.py") == (
        'Traceback (most recent call last):\n  File "examples/ch/ex.py", line 3, in <module>\n    f()\n'
        "RuntimeError: boom\nhint: do y")
    shown = KINDS[Error].html(err, Context(STRINGS["zh"], example_path="examples/ch/ex.py"))
    assert '<details class="pn-output__traceback">' in shown and "预期的异常" in shown and "hint: do y" in shown
    failure = KINDS[Error].html(dataclasses.replace(err, expected=False), Context(STRINGS["zh"]))
    assert "未预期的异常" in failure and "pn-output--failure" in failure


def test_long_outputs_collapse():
    out = Stream("stdout", "".join(f"line {i}\n" for i in range(LONG_OUTPUT_LINES + 5)))
    shown = KINDS[Stream].html(out, Context(STRINGS["en"]))
    assert ('<details class="pn-output__more"><summary data-search-exclude="true">30 lines of output; click to expand'
            '</summary>') in shown
    assert "<details" not in KINDS[Stream].html(Stream("stdout", "short\n"), Context(STRINGS["en"]))


HOSTILE = ('`<img src=x onerror=alert(1)>` </code></pre><script>alert(2)</script>\n\n'
           '**bold** {{ config.site_name }} {% raw %} | a | table |\n!!! note "x"\n    indented')


def test_hostile_text_is_escaped_everywhere_it_appears(write_example, examples_dir):
    """Outputs, a failure message and an exception message, through the page, the notice and the notebook."""
    ex = parse_example(write_example("ch/ex.py", SOURCE + "\n# %% raises=\"ValueError\"\nraise ValueError('x')\n"),
                       examples_dir)
    data = fake_record(ex, "cpu", HOSTILE)
    tb = f"Traceback (most recent call last):\nValueError: {HOSTILE}"
    data["cells"][1]["outputs"] = [{"type": "error", "ename": "ValueError", "evalue": HOSTILE, "line": 5,
                                    "expected": True, "traceback": tb}]
    put(examples_dir, data, "cpu")
    failure = layout_failure(examples_dir, ex, HOSTILE)
    fresh = freshness(ex, examples_dir)
    assert fresh.failure is not None and fresh.failure.message == HOSTILE == failure
    md, _ = render_example(ex, fresh, "en", str, LINKS)
    page = to_html(md)
    for bad in ("<img", "<script", "onerror=alert(1)>", "<strong>bold</strong>", '<div class="admonition note">'):
        assert bad not in page, bad
    assert "{{ config.site_name }}" in page, "Jinja-looking text is shown as it is"
    assert page.count("&lt;script&gt;alert(2)&lt;/script&gt;") >= 3, "the output, the exception and the notice"
    assert page.count('<div class="admonition failure">') == 1, "newlines do not break the notice box"
    from material.plugins.search.plugin import Parser  # what Material puts in the search index
    parser = Parser()
    parser.feed(page)
    parser.close()
    indexed = "".join("".join(s.text) + "".join(s.title) for s in parser.data)
    assert "<script" not in indexed and "<img" not in indexed and "&lt;script&gt;alert(2)" in indexed
    nb = build_notebook(fresh.record, "en", "Chapter", "https://example.org/ch/")
    text = json.dumps(nb)
    assert HOSTILE.replace("\n", "\\n").replace('"', '\\"') in text, "the notebook keeps the text as data"
    assert [ln for ln in comparable(fresh.record.cells[0].outputs)][0].startswith("[stdout] `<img")


def layout_failure(examples_dir, ex, message: str) -> str:
    from pytorch_notes.store.model import FORMAT, Failure
    from pytorch_notes.store.records import save_failure
    save_failure(Failure(format=FORMAT, example=ex.rel, device_kind="cpu", key=ex.key, source_sha256=ex.sha256,
                         status="failed", location="examples/ch/ex.py:3", message=message,
                         captured_at="2026-11-23T00:00:00Z", provenance=None), examples_dir)
    return message


def test_a_chapter_says_where_and_when_its_examples_ran_without_bookkeeping(write_example, examples_dir):
    """Devices, torch versions and the date: no sentence comparing them with the pinned torch (issue 44,
    item 4: every chapter opened with it)."""
    from pytorch_notes.render.html import verification_line
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    cpu = model.load(model.Record, fake_record(ex, "cpu"))
    gpu = model.load(model.Record, fake_record(ex, "cuda"))
    line = verification_line([cpu], "zh")
    assert line == ('<p class="pn-verified" data-search-exclude="true">本章的 1 个示例最近一次运行于 2026-11-23，'
                    '设备：CPU（torch 2.13.0+cpu）。</p>')
    line = verification_line([cpu, gpu], "en")
    assert line == ('<p class="pn-verified" data-search-exclude="true">The 2 examples of this chapter were last run '
                    'on 2026-11-23, on CPU (torch 2.13.0+cpu); NVIDIA H100 · CUDA 13.0 (torch 2.11.0+cu130).</p>')
    assert "pins" not in line and "固定" not in verification_line([cpu, gpu], "zh")
    assert verification_line([], "en") == ""


@pytest.mark.parametrize("cpu_s, gpu_s, ratio", [(1.5, 0.5, False), (59.0, 120.0, False), (90.0, 60.0, True)])
def test_the_run_time_ratio_only_where_start_up_does_not_make_it(write_example, examples_dir, cpu_s, gpu_s, ratio):
    """Under two tabs: the ratio of the run times only when both ran a minute or more; else the line says
    start-up is in them (issue 44, item 4: "NVIDIA H100 took 2.8x as long as CPU" under short examples)."""
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    for kind, sec in (("cpu", cpu_s), ("cuda", gpu_s)):
        data = fake_record(ex, kind)
        data["provenance"]["duration_s"] = sec
        put(examples_dir, data, kind)
    for lang, said, startup in (("en", "as long as", "starting Python"), ("zh", "倍", "启动 Python")):
        line = re.search(r'<p class="pn-compare"[^>]*>(.*?)</p>', render_example(
            ex, freshness(ex, examples_dir), lang, str, LINKS)[0]).group(1)
        assert (said in line) == ratio and (startup in line) != ratio, line


def test_each_example_links_a_prefilled_new_issue(write_example, examples_dir):
    import urllib.parse
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, fake_record(ex, "cpu"), "cpu")
    links = Links(py="x.py", new_issue="https://github.com/o/r/issues/new", page_url="https://o.github.io/r/ch/")
    md, _ = render_example(ex, freshness(ex, examples_dir), "zh", str, links)
    href = re.search(r'<a href="([^"]+)" class="pn-report"[^>]*>报告问题</a>', md).group(1)
    url = urllib.parse.urlsplit(href.replace("&amp;", "&"))
    query = urllib.parse.parse_qs(url.query)
    assert url.netloc == "github.com" and url.path == "/o/r/issues/new"
    assert query["title"] == ["examples/ch/ex.py: "]
    body = query["body"][0]  # a Chinese page pre-fills a Chinese report (issue 44, item 9)
    assert body == ("页面：https://o.github.io/r/ch/\n语言：zh\n示例：examples/ch/ex.py\n"
                    "输出捕获于：CPU · torch 2.13.0+cpu · Python 3.12.3 · 2026-11-23 · 1.5 s\n\n哪里有问题：\n")
    md, _ = render_example(ex, freshness(ex, examples_dir), "en", str, links)
    href = re.search(r'<a href="([^"]+)" class="pn-report"[^>]*>Report a problem</a>', md).group(1)
    body = urllib.parse.parse_qs(urllib.parse.urlsplit(href.replace("&amp;", "&")).query)["body"][0]
    assert body == ("Page: https://o.github.io/r/ch/\nLanguage: en\nExample: examples/ch/ex.py\n"
                    "Outputs captured on: CPU · torch 2.13.0+cpu · Python 3.12.3 · 2026-11-23 · 1.5 s\n\n"
                    "What is wrong:\n")
    md, _ = render_example(ex, freshness(ex, examples_dir), "zh", str, Links(py="x.py"))
    assert "pn-report" not in md, "no repository, no link"


def test_colab_and_kaggle_links_only_where_the_notebooks_are_published(write_example, examples_dir):
    from mkdocs.exceptions import PluginError
    from pytorch_notes.site.urls import notebook_services
    services = notebook_services("github:o/r@notebooks", "en", "ch/ex.py")
    assert services == {
        "colab": "https://colab.research.google.com/github/o/r/blob/notebooks/en/ch/ex.ipynb",
        "kaggle": "https://www.kaggle.com/kernels/welcome?src=https%3A%2F%2Fgithub.com%2Fo%2Fr%2Fblob%2Fnotebooks%2Fen%2Fch%2Fex.ipynb"}
    assert notebook_services("", "en", "ch/ex.py") == {}, "a local build links neither"
    with pytest.raises(PluginError, match="expected github:<owner>/<repo>@<branch>"):
        notebook_services("https://example.org", "en", "ch/ex.py")
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, fake_record(ex, "cpu"), "cpu")
    md, _ = render_example(ex, freshness(ex, examples_dir), "en", str, Links(py="x.py", **services))
    assert ">Open in Colab</a>" in md and ">Open in Kaggle</a>" in md


def test_an_exception_message_is_escaped_once():
    err = Error("RuntimeError", "doesn't <work>", 'Traceback (most recent call last):\nRuntimeError: doesn\'t <work>\n',
                2, expected=True)
    shown = KINDS[Error].html(err, Context(STRINGS["en"]))
    assert "doesn&#x27;t &lt;work&gt;" in shown and "&amp;" not in shown


def test_streams_printed_by_turns_read_in_one_block_in_print_order(write_example, examples_dir):
    """A warning printed between a table's header and its rows (attention's block.py on the GPU) stays between
    them, inside the one block, marked as stderr: not a box of its own splitting the table (issue 44, item 3).
    The record keeps the chunks in the order printed; a single stream stays a block of its own."""
    ex = parse_example(write_example("ch/ex.py", SOURCE + "# %%\nprint(2)\n"), examples_dir)
    data = fake_record(ex, "cuda")
    data["cells"][0]["outputs"] = [{"type": "stream", "name": "stdout", "text": "depth  grad\n"},
                                   {"type": "stream", "name": "stderr", "text": "x.py:4: UserWarning: <cuBLAS>\n"},
                                   {"type": "stream", "name": "stdout", "text": "    1  26.03\n    8  37.22\n"}]
    put(examples_dir, data, "cuda")
    for lang, label in (("zh", "输出（标准错误按打印的位置"), ("en", "Output (stderr where it was printed")):
        page = to_html(render_example(ex, freshness(ex, examples_dir), lang, str, LINKS)[0])
        first, second = page.split('<div class="pn-output ')[1:]  # one block per cell
        assert label in first and "pn-output--streams" in first
        code = re.search(r"<pre><code>(.*?)</code></pre>", first, re.S).group(1)
        # lines that are not messages are kept out of search (templating.searched_output), the text as it is
        code = re.sub(r'<span data-search-exclude="true">([^<]*)</span>', r"\1", code)
        assert code == (f'depth  grad&#10;<span class="pn-output__stderr" title="{STRINGS[lang]["stderr"]}">x.py:4: '
                        "UserWarning: &lt;cuBLAS&gt;&#10;</span>    1  26.03&#10;    8  37.22")
        assert "pn-output--streams" not in second and "made up" in second


FIGURE_SOURCE = '''# %% caption="Loss per step"
import torch
# %% caption_zh="每一步的损失" caption_en="Loss per training step"
import torch
# %%
import torch
'''


def test_a_figure_speaks_the_page_language(write_example, examples_dir):
    """Alt text and caption: the cell's caption_<lang>=, else on English pages the figure's titles or the cell's
    caption= (English, like the figures' own text), else a generic line in the page's language (issue 44,
    item 5); caption_zh= and caption_en= describe, so adding them keeps the records fresh."""
    from test_store import PNG
    ex = parse_example(write_example("ch/ex.py", FIGURE_SOURCE), examples_dir)
    data = fake_record(ex, "cpu")
    for cell, alt in zip(data["cells"], ("", "", "Its own title"), strict=True):
        cell["outputs"] = [{"type": "image", "mime": "image/png", "data": PNG, "width": 1, "height": 1, "alt": alt}]
    put(examples_dir, data, "cpu")
    bare = parse_example(write_example("ch/ex.py", FIGURE_SOURCE.replace(
        ' caption_zh="每一步的损失" caption_en="Loss per training step"', "")), examples_dir)
    assert bare.key == ex.key, "caption_zh= and caption_en= are left out of the key"

    def alts(lang):
        page = to_html(render_example(ex, freshness(ex, examples_dir), lang, str, LINKS)[0])
        return [(a, c) for a, c in re.findall(r'<img [^>]*alt="([^"]*)".*?<figcaption>(.*?)</figcaption>', page, re.S)]

    assert alts("en") == [("Loss per step",) * 2, ("Loss per training step",) * 2, ("Its own title",) * 2]
    assert alts("zh") == [("图 1：ch/ex.py 第 1 个单元格的输出",) * 2, ("每一步的损失",) * 2,
                          ("图 3：ch/ex.py 第 3 个单元格的输出",) * 2], "no English on a Chinese page"
