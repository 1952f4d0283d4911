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

ROOT = Path(__file__).resolve().parents[2]
T = STRINGS["en"]


@pytest.fixture
def overrides(tmp_path):
    """The ``pytorch-notes/`` folder of a theme ``custom_dir``, which a site's templates look in first."""
    return tmp_path / templating.OVERRIDES


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
    assert templating.PACKAGE.render("example/compare.html", line="<i>") == \
        '<p class="pn-compare" data-search-exclude="true">&lt;i&gt;</p>'
    ok = templating.trusted("<code>ok</code>")
    assert templating.PACKAGE.render("example/notice.html", kind="warning", title="T", body=ok, detail="") == (
        '<div class="admonition warning"><p class="admonition-title">T</p><p><code>ok</code></p></div>')


def test_a_site_overrides_a_template_by_a_file_of_the_same_name(overrides):
    (overrides / "example").mkdir(parents=True)
    (overrides / "example" / "compare.html").write_text('<p class="mine">\n  {{ line }}\n</p>\n', encoding="utf-8")
    site = templating.Templates.of(overrides.parent)
    assert site.search_path() == [overrides, templating.TEMPLATES]
    assert site.render("example/compare.html", line="<x>") == '<p class="mine">&lt;x&gt;</p>'
    assert site.render("example/head.html", anchor="a").startswith('<div class="pn-example"'), "others kept"
    assert templating.PACKAGE.render("example/compare.html", line="<x>").startswith('<p class="pn-compare"'), \
        "another site's templates are not this one's"


def test_the_site_s_override_folder_is_under_its_theme_custom_dir():
    from mkdocs.config import load_config

    custom_dir = load_config(str(ROOT / "mkdocs.yml")).theme.custom_dir
    assert Path(custom_dir) / templating.OVERRIDES == ROOT / "docs" / "overrides" / "pytorch-notes"
    site = ROOT / "scripts" / "pytorch_notes" / "site"
    # the plugin hands the theme's custom_dir to the checkout, which makes the build's templates from it
    assert "checkout.use_templates(config.theme.custom_dir)" in (site / "plugin.py").read_text(encoding="utf-8")
    assert "templating.Templates.of(custom_dir)" in (site / "checkout.py").read_text(encoding="utf-8")


def test_the_capture_side_imports_no_jinja():
    """``capture/check.py`` imports ``render/kinds.py``: the capture runs on the standard library alone."""
    code = ("import sys; import pytorch_notes.capture.cli, pytorch_notes.capture.check, pytorch_notes.render.kinds; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('jinja2', 'markupsafe')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT / "scripts")})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_an_override_added_while_serving_is_used_from_the_next_build(overrides):
    assert templating.Templates.of(overrides.parent).render("example/head.html", anchor="a") == \
        '<div class="pn-example" id="a"></div>'
    (overrides / "example").mkdir(parents=True)
    (overrides / "example" / "head.html").write_text('<a id="{{ anchor }}"></a>', encoding="utf-8")
    site = templating.Templates.of(overrides.parent)  # the next build's on_config
    assert site.render("example/head.html", anchor="a") == '<a id="a"></a>'


def test_an_example_is_rendered_from_the_templates_it_is_given(overrides, write_example, examples_dir):
    """The renderers take the site's templates as an argument (``tpl``, ``Context.templates``), which the
    plugin makes per build: nothing module-wide decides which site's templates an example gets."""
    from pytorch_notes.parse import parse_example
    from pytorch_notes.render.html import Links, render_example
    from pytorch_notes.store.records import DeviceOutputs, Freshness

    (overrides / "example").mkdir(parents=True)
    (overrides / "example" / "head.html").write_text('<div class="site-head" id="{{ anchor }}"></div>')
    ex = parse_example(write_example("ch/ex.py", "# %%\nprint(1)\n"), examples_dir)
    missing = Freshness({"cpu": DeviceOutputs("cpu", "missing", None, None)})
    mine, _ = render_example(ex, missing, "en", str, Links(py="ex.py"), tpl=templating.Templates.of(overrides.parent))
    package, _ = render_example(ex, missing, "en", str, Links(py="ex.py"))
    assert mine.startswith('<div class="site-head" id="example-ch-ex"></div>'), mine[:80]
    assert package.startswith('<div class="pn-example" id="example-ch-ex">'), package[:80]
