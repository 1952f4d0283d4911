"""The built site: strict build, both languages, chapter notebooks as pages, search per language."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import opened_plugin
from pytorch_notes.pages import all_embeds, language_pages
from pytorch_notes.settings import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")
pytestmark = pytest.mark.xdist_group("site")  # one build per test run, on one worker


def page_dir(lang: str) -> str:
    return "" if lang == LANGUAGES[0] else f"{lang}/"


def html_pages(site: Path):
    return sorted(site.rglob("*.html"))


def test_languages_and_html_lang(site):
    for lang in LANGUAGES:
        text = (site / page_dir(lang) / "index.html").read_text(encoding="utf-8")
        assert re.search(rf'<html[^>]* lang="{lang}', text), f"{page_dir(lang)}index.html is not lang={lang}"


def test_every_page_is_built_in_both_languages(site):
    for lang in LANGUAGES:
        for rel in language_pages(lang):
            url = rel[:-3] + "/index.html" if rel != "index.md" else "index.html"
            assert (site / page_dir(lang) / url).is_file(), f"docs/{lang}/{rel} was not built"


def test_language_switcher_keeps_the_page(site):
    text = (site / "autograd/index.html").read_text(encoding="utf-8")
    assert re.search(r'href="[^"]*en/autograd/"[^>]*hreflang="en"', text)
    # a chapter's notebook page, which mkdocs-static-i18n does not know: its menu and its head's links
    # (site/i18n.py) lead to the same chapter's notebook page in the other language
    for page, other in [("notebooks/autograd/", "en/notebooks/autograd/"), ("en/notebooks/graph/", "notebooks/graph/")]:
        text = (site / page / "index.html").read_text(encoding="utf-8")
        lang = "zh" if other.startswith("notebooks/") else "en"
        back = "../../../" if lang == "zh" else "../../"
        assert f'<a href="{back}{other}" hreflang="{lang}" class="md-select__link"' in text, page
        assert f'<link rel="alternate" href="{back}{other}" hreflang="{lang}">' in text, page


def test_notebook_pages_render_cells_not_json(site):
    """One notebook page per chapter and language, rendered by mkdocs-jupyter (cells, not the raw JSON
    that a notebook File dropped by mkdocs-static-i18n gives), with the chapter's .ipynb beside it."""
    from pytorch_notes.site.course import make_course

    for lang in LANGUAGES:
        slugs = {c.slug for c in make_course(lang, ROOT / "docs", ROOT / "examples", None, {}).chapters}
        pages = sorted((site / page_dir(lang) / "notebooks").glob("*/index.html"))
        assert {p.parent.name for p in pages} <= slugs and len(pages) >= len(slugs) - 2, sorted(pages)[:3]
        for page in pages:
            text = page.read_text(encoding="utf-8")
            assert text.lstrip().startswith("<!doctype html>") and 'class="jp-Cell' in text, f"{page}: no cells"
            assert (page.parent.parent / (page.parent.name + ".ipynb")).is_file(), f"{page}: no chapter .ipynb"
        for rel in sorted({e.rel for e in all_embeds() if e.page.startswith(f"docs/{lang}/")}):
            assert (site / page_dir(lang) / "notebooks" / (rel[:-3] + ".ipynb")).is_file(), f"{lang}: {rel} .ipynb"
    for page in html_pages(site):
        text = page.read_text(encoding="utf-8")
        assert '"nbformat":' not in text and '"cell_type":' not in text, f"raw notebook JSON in {page}"


def test_notebook_pages_are_in_the_nav_of_both_languages(site):
    """Each section's "notebooks" group lists one entry per chapter of the section (not one per example),
    in both languages; the autograd section holds three chapters."""
    import posixpath

    for lang, label in (("zh", "示例笔记本"), ("en", "Example notebooks")):
        html = (site / page_dir(lang) / "notebooks/autograd/index.html").read_text(encoding="utf-8")
        here = "notebooks/autograd/"
        targets = {posixpath.normpath(posixpath.join(here, u)) for u in _nav_links(html) if "#" not in u}
        notebooks = {t for t in targets if t.startswith("notebooks/")}
        assert notebooks == {"notebooks/autograd", "notebooks/graph", "notebooks/custom-function"}, sorted(targets)
        assert label in html


def test_search_index_per_language(site):
    zh = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    en = json.loads((site / "en/search/search_index.json").read_text(encoding="utf-8"))["docs"]
    assert zh and en
    assert not [d for d in zh if d["location"].startswith("en/")]
    assert all((site / "en" / d["location"].split("#")[0]).exists() for d in en)
    # jieba segments Chinese: words are separated by U+200B in the index, and each word carries U+2060
    # between its characters, as the browser marks a query (site/searchwords.py).
    assert any("\u200b张\u2060量" in d["text"] or "张\u2060量\u200b" in d["text"] for d in zh)
    assert not any("张量" in d["text"] for d in zh), "an unmarked Chinese word in the index"
    # the glossary's terms are words of jieba's dictionary (searchwords.load_user_dictionary): whole, not split
    text = "".join(d["text"] + d["title"] for d in zh)
    for term in ("自动求导", "叶子节点"):
        whole, split = "\u2060".join(term), "\u2060".join(term[:2]) + "\u200b" + "\u2060".join(term[2:])
        assert whole in text and split not in text, term
    assert (site / "search/vocabulary.js").read_text(encoding="utf-8").startswith("window.__pnVocabulary={")
    # Notebook pages repeat the examples that chapters embed: kept out of the index, whose
    # chapter entries carry the code itself.
    assert not [d["location"] for d in zh + en if "notebooks/" in d["location"]]
    assert any("import torch" in d["text"] for d in zh) and any("import torch" in d["text"] for d in en)
    assert '"base": "' in (site / "en/index.html").read_text() and 'cfg.base + "/en"' in \
        (site / "en/index.html").read_text()


def test_search_indexes_an_example_s_code_once(site):
    """An example shown with two device tabs is indexed with the first tab's code only: the second repeats it
    (render/html.py wraps it in a search-excluded element). Its code twice in a section's entry doubled the
    weight of every word of it against the prose (169 of 261 entries per language, 2026-11-27)."""
    for rel in ("search/search_index.json", "en/search/search_index.json"):
        repeated = []
        for doc in json.loads((site / rel).read_text(encoding="utf-8"))["docs"]:
            blocks = [b for b in re.findall(r"<pre><code>(.*?)</code></pre>", doc["text"], re.S) if b.count("\n") >= 2]
            if len(blocks) != len(set(blocks)):
                repeated.append(doc["location"])
        assert not repeated, f"{rel}: {len(repeated)} entries index a code block twice: {repeated[:5]}"
    # an output's label and run time ("Output 0.21 s") are no words of the page (render/kinds.py, output_label)
    en = (site / "en/search/search_index.json").read_text(encoding="utf-8")
    assert not re.search(r"Output [\d.]+ s", en), "output labels in the search index"


TAG = re.compile(r"<(script|link|img|iframe|source|video|audio)\b([^>]*)>", re.I)
URL = re.compile(r'\b(?:src|href)="(?:https?:)?//([^/"]+)', re.I)
NOT_LOADED = re.compile(r'\brel="(?:canonical|alternate)"', re.I)  # metadata: the browser fetches nothing


def test_nothing_loads_from_third_party_hosts(site):
    offenders = set()
    for page in html_pages(site):
        for tag, attrs in TAG.findall(page.read_text(encoding="utf-8")):
            if tag.lower() == "link" and NOT_LOADED.search(attrs):
                continue
            for host in URL.findall(attrs):
                offenders.add(f"{page.relative_to(site)}: <{tag}> from {host}")
    assert not offenders, sorted(offenders)[:20]
    css_js = "".join(p.read_text(errors="ignore") for p in site.rglob("*.css"))
    assert "fonts.googleapis.com" not in css_js


def test_chinese_headings_get_readable_anchors(site):
    text = (site / "autograd/index.html").read_text(encoding="utf-8")
    ids = re.findall(r'<h2 id="([^"]+)"', text)
    assert ids and not [i for i in ids if re.fullmatch(r"_\d+", i)], ids


def test_outputs_figures_and_downloads_are_published(site):
    embeds = all_embeds()
    for e in embeds:
        for lang_dir in ("", "en/"):  # one per language, its comments in that language
            assert (site / f"{lang_dir}examples" / e.rel).is_file(), f"{lang_dir}: .py download of {e.rel} missing"
    pngs = list((site / "outputs").rglob("*.png"))
    text = "".join(p.read_text(encoding="utf-8") for p in html_pages(site))
    assert all(p.name in text for p in pngs)
    assert "pn-provenance" in text
    assert ">Open in Colab</a>" not in text and ">Open in Kaggle</a>" not in text, "a local build links neither"


def fake_page(src_uri: str):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri, url=src_uri[:-3] + "/"))


def test_missing_example_fails_naming_page_and_line():
    from mkdocs.exceptions import PluginError
    md = "# T\n\ntext\n\n::: example nowhere/missing.py\n"
    with pytest.raises(PluginError, match=r"docs/zh/t\.md:5: example 'nowhere/missing\.py' not found"):
        opened_plugin().on_page_markdown(md, page=fake_page("zh/t.md"), config=None, files=None)


def test_malformed_embed_fails_naming_page_and_line():
    from mkdocs.exceptions import PluginError
    md = "# T\n\n::: example autograd\n"
    with pytest.raises(PluginError, match=r"docs/en/t\.md:3: malformed example embed"):
        opened_plugin().on_page_markdown(md, page=fake_page("en/t.md"), config=None, files=None)


def test_embed_syntax_inside_code_fences_is_left_alone():
    md = "# T\n\n```markdown\n::: example nowhere/missing.py\n```\n"
    out = opened_plugin().on_page_markdown(md, page=fake_page("en/t.md"), config=None, files=None)
    assert "::: example nowhere/missing.py" in out


def _nav_links(html: str) -> set[str]:
    """hrefs of the primary (sidebar) nav of a built page."""
    start = html.index('<nav class="md-nav md-nav--primary')
    end = html.index('class="md-content"', start)  # the sidebars come before the content
    return set(re.findall(r'<a href="([^"]+)" class="md-nav__link', html[start:end]))


def test_a_page_carries_only_its_own_sections_nav(site):
    """Each section's notebooks sit in that section and the nav is tabbed and pruned, so the nav
    in a page does not grow with the whole course (what keeps builds linear, see make bench)."""
    nb = (site / "notebooks/autograd/index.html").read_text(encoding="utf-8")
    links = _nav_links(nb)
    assert "../graph/" in links, sorted(links)                      # its own section's notebooks
    assert "../tensors/" not in links, sorted(links)                # not another section's
    assert '<li class="md-tabs__item' in nb                         # sections are tabs
    all_nb = len(list(site.glob("notebooks/*/index.html")))
    for page in [site / "notebooks/autograd/index.html", site / "autograd/index.html"]:
        html = page.read_text(encoding="utf-8")
        assert html.count("md-nav__item") < 2 * all_nb, f"{page.relative_to(site)}: the whole course in its nav"


def test_notebook_pages_link_one_stylesheet_instead_of_inline_css(site):
    """nbconvert's ~590 KB of inline CSS is out of every notebook page: the rules it needs are one file."""
    pages = sorted(site.glob("notebooks/*/index.html")) + sorted(site.glob("en/notebooks/*/index.html"))
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not re.findall(r"<style\b", html), f"{page.relative_to(site)}: inline stylesheet(s) left"
        links = re.findall(r'<link rel="stylesheet" href="([^"]*assets/jupyter\.css)">', html)
        assert len(links) == 1 and (page.parent / links[0]).resolve().is_file(), page.relative_to(site)
        assert len(html.encode("utf-8")) < 300_000, f"{page.relative_to(site)} is {len(html) // 1000} KB"
    assert "jupyter.css" not in (site / "autograd/index.html").read_text(encoding="utf-8"), "chapters do not load it"


def test_every_chapter_with_examples_says_where_they_last_ran(site):
    """The verification line under the title, from the chapter's records (issue 17, point 3)."""
    for lang in LANGUAGES:
        for rel, path in language_pages(lang).items():
            if "::: example" not in path.read_text(encoding="utf-8"):
                continue
            out = site / ("" if lang == LANGUAGES[0] else lang) / rel[: -len(".md")] / "index.html"
            text = out.read_text(encoding="utf-8")
            assert 'class="pn-verified"' in text, f"{out}: no verification line"
            assert text.index('class="pn-verified"') < text.index('class="pn-example"'), f"{out}: not under the title"


_ARTICLE = re.compile(r'<article class="md-content__inner[^"]*">(.*?)</article>', re.S)
_SECTION_HEADING = re.compile(r'<h([23])\b[^>]*\bid="([^"]+)"')


def test_twin_pages_have_their_sections_in_step(site):
    """Every page and its translation have the same h2/h3 sections in the same order, so the language switch
    can keep the reader's section by its rank (docs/overrides/main.html; tests/browser/test_reader_paths.py drives
    the switch in a browser). A section added in one language only makes the switch open the page's top."""
    out_of_step = []
    for rel in language_pages(LANGUAGES[0]):
        url = rel[:-3] + "/index.html" if rel != "index.md" else "index.html"
        levels = {}
        for lang in LANGUAGES:
            article = _ARTICLE.search((site / page_dir(lang) / url).read_text(encoding="utf-8"))
            levels[lang] = [(m.group(1), m.group(2)) for m in _SECTION_HEADING.finditer(article.group(1))]
        zh, en = (levels[lang] for lang in LANGUAGES[:2])
        if [lvl for lvl, _ in zh] != [lvl for lvl, _ in en]:
            out_of_step.append(f"{rel}: {len(zh)} vs {len(en)} sections\n  " +
                               "\n  ".join(f"{lang}: " + " ".join(f"h{lvl}#{anchor}" for lvl, anchor in levels[lang])
                                           for lang in LANGUAGES[:2]))
    assert not out_of_step, "\n".join(out_of_step)


def test_figures_speak_the_page_language(site):
    """Every figure's alt text and caption on a Chinese page is Chinese, on an English page English, never the
    generic "Figure n: output of cell c" line; no notebook image keeps nbconvert's placeholder alt, "No
    description has been provided for this image" (issue 44, item 5: 11 English figures in 6 Chinese chapters,
    28 placeholder alts on the Chinese notebook pages). A figure cell says it with caption_zh= / caption_en=."""
    from pytorch_notes.render.strings import STRINGS
    from pytorch_notes.site.notebook_view import NBCONVERT_ALT
    cjk = re.compile(r"[\u4e00-\u9fff]")
    generic = {lang: re.compile(re.sub(r"\\\{\w+\\\}", ".+", re.escape(STRINGS[lang]["figure"]))) for lang in LANGUAGES}
    figure = re.compile(r'<figure class="pn-figure">.*?<img [^>]*alt="([^"]*)".*?<figcaption>(.*?)</figcaption>', re.S)
    counts, problems = {lang: [0, 0] for lang in LANGUAGES}, []
    for page in html_pages(site):
        rel = page.relative_to(site).as_posix()
        lang = next((x for x in LANGUAGES if rel.startswith(page_dir(x)) and page_dir(x)), LANGUAGES[0])
        text = page.read_text(encoding="utf-8")
        shown = [(alt, cap) for alt, cap in figure.findall(text)]
        if "/notebooks/" in f"/{rel}":
            shown = [(alt, alt) for alt in re.findall(r'<img [^>]*alt="([^"]*)"[^>]*src="[^"]*outputs/', text)]
            counts[lang][1] += len(shown)
            if NBCONVERT_ALT in text:
                problems.append(f"{rel}: nbconvert's placeholder alt")
        else:
            counts[lang][0] += len(shown)
        for alt, cap in shown:
            for what, value in (("alt", alt), ("caption", cap)):
                if bool(cjk.search(value)) != (lang == "zh") or generic[lang].fullmatch(value):
                    problems.append(f"{rel}: {what} {value!r} is not a description in the page's language")
    assert not problems, "\n".join(problems[:20])
    for lang, (chapters, notebooks) in counts.items():
        assert chapters >= 60 and notebooks >= 28, f"{lang}: {chapters} figures on chapters, {notebooks} on notebooks"
