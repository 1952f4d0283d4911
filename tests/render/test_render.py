"""Stage 4: rendering an example with its outputs into page Markdown, then HTML."""

from __future__ import annotations

import base64
import html
import re
from functools import cache
from pathlib import Path

import markdown
import pytest
from pytorch_notes.capture.cli import record_from_run
from pytorch_notes.execute.supervise import run_example
from pytorch_notes.parse import parse_example
from pytorch_notes.render.html import Links, clean_text, render_example
from pytorch_notes.render.notebook import build_notebook
from pytorch_notes.store.records import DeviceOutputs, Freshness, freshness, save_record

ROOT = Path(__file__).resolve().parents[2]


@cache
def site_markdown_config():
    from mkdocs.config import load_config
    cfg = load_config(str(ROOT / "mkdocs.yml"))
    return cfg.markdown_extensions, cfg.mdx_configs


def to_html(md: str) -> str:
    exts, configs = site_markdown_config()
    return markdown.Markdown(extensions=exts, extension_configs=configs).convert(md)


LINKS = Links(py="../examples/ch/ex.py", ipynb="../notebooks/ch/ex.ipynb", notebook="../notebooks/ch/#expy")


def rendered(write_example, examples_dir, source, lang="en"):
    ex = parse_example(write_example("ch/ex.py", source), examples_dir)
    save_record(record_from_run(run_example(ex)), examples_dir)
    md, assets = render_example(ex, freshness(ex, examples_dir), lang, lambda p: "../" + p, LINKS)
    return ex, md, assets, to_html(md)


def test_html_in_outputs_is_escaped(write_example, examples_dir):
    _, md, _, out = rendered(write_example, examples_dir, '''
        # %%
        print("<script>alert(1)</script>\\n\\n*not emphasis*\\n    # not a heading\\n```")
    ''')
    assert "<script>alert(1)" not in out
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    assert "*not emphasis*" in out and "<em>" not in out
    assert "# not a heading" in out


def test_code_cells_then_outputs_in_order(write_example, examples_dir):
    _, md, _, out = rendered(write_example, examples_dir, '''
        # %%
        print("first output")
        # %%
        print("second output")
    ''')
    i = [out.index(s) for s in ("first", "first output", "second", "second output")]
    assert i == sorted(i)
    assert out.count('class="pn-output pn-output--stdout"') == 2
    assert 'title="ch/ex.py"' in md  # the first code block names the file


def test_provenance_and_downloads(write_example, examples_dir):
    _, md, _, out = rendered(write_example, examples_dir, '# %%\nprint(1)\n', lang="zh")
    assert "输出捕获于" in out
    facts = html.unescape(out.split('pn-provenance__facts"', 1)[1].split(">", 1)[1].split("<", 1)[0])
    parts = facts.split(" · ")
    assert parts[0] in ("CPU",) or "NVIDIA" in parts[0] or parts[0]  # device comes first
    assert any(p.startswith("Python ") for p in parts) and parts[-1].endswith(" s")
    assert 'href="../examples/ch/ex.py" download' in out and "下载 .ipynb" in out


def test_expected_exception_is_shown(write_example, examples_dir):
    _, _, _, out = rendered(write_example, examples_dir, '# %% raises="ZeroDivisionError"\n1 / 0\n')
    assert "pn-output--raised" in out and "ZeroDivisionError: division by zero" in out


def test_figures_become_assets(write_example, examples_dir):
    _, md, assets, out = rendered(write_example, examples_dir, '''
        # %%
        import matplotlib.pyplot as plt
        plt.plot([0, 1])
        plt.show()
    ''')
    assert [a.path for a in assets] == ["outputs/ch/ex/cell1-1.png"]
    assert assets[0].data.startswith(b"\x89PNG")
    assert '<img src="../outputs/ch/ex/cell1-1.png"' in out
    assert 'alt="Figure 1: output of cell 1 of ch/ex.py"' in out, "a figure without a title: a generic alt"
    assert '<a href="../outputs/ch/ex/cell1-1.png" class="pn-figure__full"' in out, "opens full size"
    # both dimensions: the browser reserves the figure's box before the lazily loaded image arrives, so
    # nothing below it moves (a reader's place, and the language switch that keeps it, stay put)
    size = re.search(r'<img [^>]*width="(\d+)" height="(\d+)"', out)
    assert size and int(size[1]) > 0 and int(size[2]) > 0, out


def test_a_figure_is_described_by_its_titles(write_example, examples_dir):
    _, _, _, out = rendered(write_example, examples_dir, '''
        # %%
        import matplotlib.pyplot as plt
        fig, (a, b) = plt.subplots(1, 2)
        a.set_title("Training loss"); b.set_title("Validation <accuracy>")
        plt.show()
    ''')
    alt = "Training loss; Validation &lt;accuracy&gt;"
    assert f'alt="{alt}"' in out and f"<figcaption>{alt}</figcaption>" in out


def test_an_untitled_figure_takes_its_cells_caption(write_example, examples_dir):
    _, _, _, out = rendered(write_example, examples_dir, '''
        # %% caption="Loss per epoch"
        import matplotlib.pyplot as plt
        plt.plot([3, 2, 1])
        plt.show()
    ''')
    assert 'alt="Loss per epoch"' in out and "<figcaption>Loss per epoch</figcaption>" in out


def test_stale_outputs_warn_and_keep_unchanged_cells(write_example, examples_dir):
    path = write_example("ch/ex.py", '# %%\nprint("kept")\n# %%\nprint("old")\n')
    ex = parse_example(path, examples_dir)
    save_record(record_from_run(run_example(ex)), examples_dir)
    path.write_text('# %%\nprint("kept")\n# %%\nprint("new")\n')
    ex2 = parse_example(path, examples_dir)
    md, _ = render_example(ex2, freshness(ex2, examples_dir), "en", str, LINKS)
    out = to_html(md)
    assert "Outputs out of date" in out
    assert out.count("pn-output--stdout") == 1  # the unchanged cell keeps its output
    assert re.search(r"<code>(<span[^>]*>)?kept(</span>)?</code>", out), out
    assert "<code>old</code>" not in out  # the changed cell shows no stale output


def test_missing_outputs_warn(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", '# %%\nprint(1)\n'), examples_dir)
    md, _ = render_example(ex, Freshness({"cpu": DeviceOutputs("cpu", "missing", None, None)}), "zh", str, LINKS)
    assert "尚无输出" in to_html(md) and "下载 .ipynb" not in md


@pytest.mark.parametrize("raw, shown", [
    ("\x1b[31mred\x1b[0m", "red"),
    ("10%\r50%\r100%\ndone", "100%\ndone"),
    ("a\x1b]0;title\x07b\x00c\x07d\x7fe\x9bf\u202eg\u2066h", "abcdef⟨U+202E⟩g⟨U+2066⟩h"),  # OSC NUL BEL DEL C1 bidi
])
def test_terminal_text_is_cleaned(raw, shown):
    assert clean_text(raw) == shown


def test_notebook_is_valid_and_carries_outputs(write_example, examples_dir):
    import nbformat
    ex = parse_example(write_example("ch/ex.py", '''
        # %%
        print("hello")
        # %% raises="KeyError"
        {}["k"]
        # %%
        import matplotlib.pyplot as plt
        plt.plot([1]); plt.show()
    '''), examples_dir)
    record = record_from_run(run_example(ex))
    from pytorch_notes.render.notebook import dumps
    nb = nbformat.reads(dumps(build_notebook(record, "en", "Chapter", "../../ch/")), as_version=4)
    nbformat.validate(nb)
    assert nb.cells[0].source.startswith("# Chapter · ex.py")
    assert nb.cells[1].outputs[0].text == "hello\n"
    assert nb.cells[2].metadata.tags == ["raises-exception"] and nb.cells[2].outputs[0].ename == "KeyError"
    assert base64.b64decode(nb.cells[3].outputs[0].data["image/png"]).startswith(b"\x89PNG")
