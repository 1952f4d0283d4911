"""The ``::: example`` syntax as a Markdown extension: nested in tabs, admonitions, collapsible blocks
and lists, ignored in HTML comments and code fences, misspellings refused, duplicates given unique ids.

It renders real examples of the course from the committed store.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import markdown
import pytest
from conftest import ROOT, opened_plugin
from mkdocs.exceptions import PluginError
from pytorch_notes.site.embed import EmbedExtension
from test_render import site_markdown_config

EXAMPLE = "autograd/backward.py"


def to_page_html(md: str, embeds) -> str:
    """``md`` (after the plugin's ``on_page_markdown``) converted as MkDocs converts a page: the site's extensions
    plus the embed extension that ``on_config`` adds, with the plugin's ``embeds``."""
    exts, configs = site_markdown_config()
    return markdown.Markdown(extensions=[*exts, EmbedExtension(embeds)], extension_configs=configs).convert(md)


def build(md: str, src: str = "zh/t.md") -> str:
    page = SimpleNamespace(file=SimpleNamespace(src_uri=src, url=src[:-3] + "/"))
    config = SimpleNamespace(use_directory_urls=True)
    plugin = opened_plugin()
    return to_page_html(plugin.on_page_markdown(md, page=page, config=config, files=None), plugin.checkout.embeds)


@pytest.mark.parametrize("wrap, container", [
    ('=== "标签"\n\n    ::: example {ex}\n', r'<div class="tabbed-block">'),
    ('!!! note "提示"\n\n    ::: example {ex}\n', r'<div class="admonition note">'),
    ('??? success "参考答案"\n\n    ::: example {ex}\n', r'<details class="success">'),
    ("- 第一项\n\n    ::: example {ex}\n", r"<li>"),
])
def test_an_embed_works_nested(wrap, container):
    page = build("# T\n\n" + wrap.format(ex=EXAMPLE))
    inside = page.split(re.search(container, page).group(0), 1)[1]
    assert 'class="pn-example"' in inside and 'class="pn-output' in inside and 'class="pn-provenance"' in inside
    assert '<div class="language-python highlight">' in inside, "code cells are still highlighted"
    assert "<p><div" not in page and "<p><p" not in page, "raw HTML is not wrapped in paragraphs"
    assert "::: example" not in page


def test_embeds_in_html_comments_and_code_fences_are_left_alone():
    page = build(f"# T\n\n<!-- ::: example {EXAMPLE} -->\n\n<!--\n::: example {EXAMPLE}\n-->\n\n"
                 f"```markdown\n::: example {EXAMPLE}\n```\n")
    assert 'class="pn-example"' not in page
    assert f"::: example {EXAMPLE}" in page, "the fenced one is shown as text"


def test_a_misspelled_keyword_fails_naming_page_and_line():
    expected = r"^docs/en/t\.md:4: unknown keyword 'exmaple' \(did you mean `::: example`\?\)"
    with pytest.raises(PluginError, match=expected):
        build(f"# T\n\ntext\n::: exmaple {EXAMPLE}\n", "en/t.md")


def test_an_example_embedded_twice_gets_unique_ids():
    page = build(f"# T\n\n::: example {EXAMPLE}\n\n## Again\n\n::: example {EXAMPLE}\n")
    ids = re.findall(r'class="pn-example" id="([^"]+)"', page)
    assert ids == ["example-autograd-backward", "example-autograd-backward-2"]
    assert len(set(re.findall(r'\bid="([^"]+)"', page))) == len(re.findall(r'\bid="([^"]+)"', page)), "duplicate ids"


def test_a_page_outline_is_read_again_when_the_page_changes(tmp_path):
    import os

    from pytorch_notes.pages import PageError, page_outline

    page = tmp_path / "p.md"
    page.write_text("# 标题\n\n::: example autograd/backward.py\n", encoding="utf-8")
    heading, embeds = page_outline(page, "docs/zh/p.md")
    assert heading == "标题" and [e.rel for e in embeds] == ["autograd/backward.py"]
    page.write_text("# Renamed\n\n:::example autograd/backward.py\n", encoding="utf-8")
    os.utime(page, ns=(1, 1))  # a different stat even within the clock's tick
    with pytest.raises(PageError, match=r"docs/zh/p.md:3:"):
        page_outline(page, "docs/zh/p.md")
    page.write_text("# Renamed\n\n::: example tensors/create.py\n", encoding="utf-8")
    assert page_outline(page, "docs/zh/p.md")[0] == "Renamed"  # the error was not remembered
    assert [e.rel for e in page_outline(page, "docs/zh/p.md")[1]] == ["tensors/create.py"]


def test_the_store_is_read_once_per_example_in_a_build_and_every_time_outside_one(monkeypatch):
    from pytorch_notes.site import exampleindex

    reads = []
    monkeypatch.setattr(exampleindex, "freshness", lambda example, examples_dir: reads.append(example.rel) or object())
    example = SimpleNamespace(rel="tensors/create.py", key="k1")
    examples = exampleindex.ExampleIndex(ROOT / "examples")
    examples.freshness(example), examples.freshness(example)
    assert len(reads) == 2  # no build: a capture may write between two calls
    examples.new_build()
    first = examples.freshness(example)
    assert examples.freshness(example) is first and len(reads) == 3
    assert examples.freshness(SimpleNamespace(rel="tensors/create.py", key="k2")) is not first  # edited
    other = exampleindex.ExampleIndex(ROOT / "examples")
    assert other.freshness(example) is not first  # another plugin's builds: their own state
    examples.end_build()
    examples.freshness(example)
    assert len(reads) == 6
    examples.new_build({"autograd/backward.py"})  # make serve: another example changed, this one is kept
    assert examples.freshness(example) is first and len(reads) == 6
    examples.new_build({"tensors/create.py"})  # its file or a record changed: read again
    assert examples.freshness(example) is not first and len(reads) == 7


def test_an_embed_is_keyed_by_what_its_rendering_reads_and_rendered_only_when_converted(
        write_example, examples_dir, tmp_path, monkeypatch):
    """The Markdown cache (site/mdcache.py) keys a page's conversion by its embeds' keys, so a page whose
    conversion it holds never renders its examples: each key must change with every input of the rendering."""
    from pytorch_notes.capture.cli import record_from_run
    from pytorch_notes.execute.supervise import run_example
    from pytorch_notes.parse import parse_example
    from pytorch_notes.render.templating import Templates
    from pytorch_notes.site import embed
    from pytorch_notes.store.layout import record_path
    from pytorch_notes.store.records import save_record

    path = write_example("ch/ex.py", "# %%\nprint(1)  # zh: 一 | en: one\n")
    save_record(record_from_run(run_example(parse_example(path, examples_dir))), examples_dir)
    plugin = opened_plugin(examples_dir=examples_dir)
    renders = []
    real = embed.render_example
    monkeypatch.setattr(embed, "render_example", lambda *a: renders.append(a) or real(*a))
    md = "# T\n\n::: example ch/ex.py\n"

    def key(src="zh/t.md", extra=None, text=md):
        page = SimpleNamespace(file=SimpleNamespace(src_uri=src, url=src[:-3] + "/"))
        config = SimpleNamespace(use_directory_urls=True, extra=extra or {})
        plugin.on_page_markdown(text, page=page, config=config, files=None)
        return plugin.checkout.embeds.page.keys[("ch/ex.py", 1)]

    first = key()
    assert key() == first and renders == [], "the same inputs give the same key; preparing renders nothing"
    keys = {"language": key(src="en/t.md"), "page": key(src="zh/u.md"),
            "links": key(extra={"published_notebooks": "github:o/r@notebooks"})}
    key(text=md + "\n::: example ch/ex.py\n")
    keys["anchor"] = plugin.checkout.embeds.page.keys[("ch/ex.py", 2)]  # its second embed: another id
    path.write_text("# %%\nprint(1)  # zh: 二 | en: two\n", encoding="utf-8")  # the record stays fresh
    keys["example"] = key()
    record = record_path("ch/ex.py", "cpu", examples_dir)
    record.write_bytes(record.read_bytes())  # written again: keyed by its stat, as loaded records are (filememo)
    keys["record"] = key()
    (tmp_path / "overrides" / "pytorch-notes" / "example").mkdir(parents=True)
    (tmp_path / "overrides" / "pytorch-notes" / "example" / "head.html").write_text("<div id='{{ anchor }}'>")
    plugin.checkout.embeds.templates = Templates.of(tmp_path / "overrides")
    keys["templates"] = key()
    assert len({first, *keys.values()}) == len(keys) + 1, keys
    assert renders == []
    html = to_page_html(md, plugin.checkout.embeds)
    assert len(renders) == 1 and "<div id='example-ch-ex'>" in html and "二" in html
