"""Stage 4: the HTML templates of the renderer (``render/templating.py``, ``render/templates/``, issue 28 item 5).

The untrusted-input tests (``test_render_untrusted.py``, ``test_render.py``, ``test_times.py``) check what the
templates make of hostile records; these check the loader itself: one line per block, the escaping the site
used before the templates, a site's override folder looked in first, and no Jinja on the capture side."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pytorch_notes.render import templating
from pytorch_notes.render.kinds import KINDS, LONG_OUTPUT_LINES, Context, output_block
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.store.model import Stream

ROOT = Path(__file__).resolve().parent.parent
T = STRINGS["en"]


@pytest.fixture
def overrides(tmp_path):
    """A theme ``custom_dir`` whose ``pytorch-notes/`` folder the loader looks in first (reset afterwards)."""
    templating.use_overrides(tmp_path)
    yield tmp_path / templating.OVERRIDES
    templating.use_overrides(None)


def test_a_block_is_one_line_whatever_its_text_holds():
    text = "a\nb\u2028c\r\nd\n" * (LONG_OUTPUT_LINES + 1)
    block = output_block(text, "pn-output--stdout", "Output", T, "0.10 s")
    assert "\n" not in block and "\u2028" not in block and "\r" not in block
    assert "a&#10;b&#10;c&#10;d&#10;a" in block and "<details" in block, "breaks as character references, collapsed"
    assert block.startswith('<div class="pn-output pn-output--stdout"><span class="pn-output__label" '
                            'data-search-exclude="true">Output <span class="pn-output__time">0.10 s</span></span>')


def test_values_are_escaped_once_as_html_escape_writes_them():
    shown = KINDS[Stream].html(Stream("stdout", "<b>'x' & \"y\"</b> &amp;\n"), Context(T))
    assert "&lt;b&gt;&#x27;x&#x27; &amp; &quot;y&quot;&lt;/b&gt; &amp;amp;" in shown
    assert templating.render("example/compare.html", line="<i>") == \
        '<p class="pn-compare" data-search-exclude="true">&lt;i&gt;</p>'
    ok = templating.trusted("<code>ok</code>")
    assert templating.render("example/notice.html", kind="warning", title="T", body=ok, detail="") == (
        '<div class="admonition warning"><p class="admonition-title">T</p><p><code>ok</code></p></div>')


def test_a_site_overrides_a_template_by_a_file_of_the_same_name(overrides):
    (overrides / "example").mkdir(parents=True)
    (overrides / "example" / "compare.html").write_text('<p class="mine">\n  {{ line }}\n</p>\n', encoding="utf-8")
    assert templating.search_path() == [overrides, templating.TEMPLATES]
    assert templating.render("example/compare.html", line="<x>") == '<p class="mine">&lt;x&gt;</p>'
    assert templating.render("example/head.html", anchor="a").startswith('<div class="pn-example"'), "others kept"


def test_the_site_s_override_folder_is_under_its_theme_custom_dir():
    from mkdocs.config import load_config

    custom_dir = load_config(str(ROOT / "mkdocs.yml")).theme.custom_dir
    assert Path(custom_dir) / templating.OVERRIDES == ROOT / "docs" / "overrides" / "pytorch-notes"
    plugin = (ROOT / "scripts" / "pytorch_notes" / "site" / "plugin.py").read_text(encoding="utf-8")
    assert "templating.use_overrides(config.theme.custom_dir)" in plugin


def test_the_capture_side_imports_no_jinja():
    """``capture/check.py`` imports ``render/kinds.py``: the capture runs on the standard library alone."""
    code = ("import sys; import pytorch_notes.capture.cli, pytorch_notes.capture.check, pytorch_notes.render.kinds; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jinja2', 'markupsafe')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT / "scripts")})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_an_override_added_while_serving_is_used_from_the_next_build(overrides):
    assert templating.render("example/head.html", anchor="a") == '<div class="pn-example" id="a"></div>'
    (overrides / "example").mkdir(parents=True)
    (overrides / "example" / "head.html").write_text('<a id="{{ anchor }}"></a>', encoding="utf-8")
    templating.use_overrides(overrides.parent)  # the next build's on_config
    assert templating.render("example/head.html", anchor="a") == '<a id="a"></a>'
