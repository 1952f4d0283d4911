"""The reader's experience, part two (issue 17): search recall, the course map, localisation, axe, phones.

Runs in the browser suite's group against the same built site; the server, browser and tab fixtures
come from ``tests/browser/test_browser.py``.
"""

from __future__ import annotations

import json
import re
import urllib.request
from urllib.parse import unquote

import pytest
import test_browser
import yaml
from benchmarks.reader import AXE_PAGES, LANGUAGES, axe_count, lang_root, recall_at_3, search_pages
from test_browser import SCREENSHOTS, html_lang, path_of

base, browser, tab = test_browser.base, test_browser.browser, test_browser.tab  # fixtures

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("reader")]  # beside the crawl, on the other worker


# ---------------------------------------------------------------------------------------------
# 1. Search
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_search_recall_at_3(tab, base, lang):
    """Each query of tests/search_queries.json finds its page among the first three results."""
    result = recall_at_3(tab.page, base, lang)
    print(f"\n{result}")
    assert result.total >= (40 if lang == "zh" else 30)
    # Most of the set was written by people who saw only the chapter titles (issue 27), and tuned on since:
    # 2026-11-25 zh 0.892, en 0.942; 2026-11-27 (771 zh / 389 en queries) zh 0.994, en 0.995.
    assert result.value >= 0.95, f"{result}; misses:\n" + "\n".join(result.misses)
    # a query whose words are on the site finds at least one page (21 Chinese queries found none while the
    # browser did not segment them, issue 27); one whose topic is not (register_buffer) may find nothing
    on_site = [q for q in result.empty if _words_on_site(tab.page, base, lang, q)]
    assert not on_site, f"{len(on_site)} queries found nothing though their words are on the site: {on_site[:10]}"


def _words_on_site(page, base: str, lang: str, query: str) -> list[str]:
    """The words the browser searches for ``query`` that occur in the language's search index."""
    index = json.loads(urllib.request.urlopen(lang_root(base, lang) + "search/search_index.json").read())
    text = " ".join(d["title"] + " " + d["text"] for d in index["docs"]).replace("\u2060", "").lower()
    page.goto(lang_root(base, lang))
    page.focus("input.md-search__input")
    page.wait_for_function("() => !!window.__pnVocabulary")
    terms = page.evaluate("(q) => window.__pnSearchQuery(q)", query).replace("\u2060", "").lower().split()
    words = [re.sub(r"^\*|\*$|\^\d+$", "", t) for t in terms]
    return [w for w in words if w and w in text]


@pytest.mark.parametrize(("lang", "query", "first"), [
    ("zh", "自动 求导", "autograd/"),
    ("zh", "数据加载", "data/"),
    ("en", "glossary", "glossary/"),
    ("en", "Expected all tensors to be on the same device", "devices/"),
])
def test_search_ranks_the_chapter_first(tab, base, lang, query, first):
    page = tab.page
    page.goto(lang_root(base, lang))
    results = search_pages(page, query)
    assert results and results[0] == path_of(lang_root(base, lang) + first), f"{query}: {results[:5]}"
    if query == "数据加载":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "search-zh-data-loading.png"))


# ---------------------------------------------------------------------------------------------
# 2. The home page as a course map
# ---------------------------------------------------------------------------------------------

DOCS = test_browser.ROOT / "docs"

HOME_JS = """() => {
  const main = document.querySelector(".md-content");
  const start = main.querySelector("a.md-button--primary");
  const box = start ? start.getBoundingClientRect() : null;
  return {
    start: start ? {href: start.href, bottom: box.bottom} : null,
    items: [...main.querySelectorAll("li")].map((li) => {
      const a = li.querySelector("a");
      return {href: a ? a.href : "", text: li.textContent};
    }),
    text: main.textContent,
    links: [...main.querySelectorAll("a")].map((a) => a.href),
  };
}"""


def _nav_chapters() -> dict[str, list[str]]:
    """Course section -> chapter sources, from mkdocs.yml's nav (the appendix and the about section left out)."""
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    nav = yaml.load((test_browser.ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)["nav"]
    sections = {}
    for entry in nav:
        if isinstance(entry, dict):
            (name, pages), = entry.items()
            if name not in ("附录", "关于"):
                sections[name] = pages
    return sections


@pytest.mark.parametrize("lang", LANGUAGES)
def test_home_page_is_a_course_map(tab, base, lang):
    page = tab.page
    root = lang_root(base, lang)
    page.goto(root)
    home = page.evaluate(HOME_JS)
    # a start button, visible without scrolling, leading to the first chapter
    assert home["start"], "no start button (a.md-button--primary) on the home page"
    assert path_of(home["start"]["href"]) == path_of(root + "quickstart/")  # the first page of the nav
    assert home["start"]["bottom"] <= test_browser.DESKTOP["height"], "the start button is below the fold"
    # every chapter, with one line and its number of examples, counted from the page's own embeds
    word = r"(\d+) 个示例" if lang == "zh" else r"(\d+) examples?"
    lines = {path_of(it["href"]): it["text"] for it in home["items"] if it["href"]}
    chapters = [src for pages in _nav_chapters().values() for src in pages]
    assert len(chapters) >= 15
    for src in chapters:
        url = path_of(root + src[: -len(".md")] + "/")
        assert url in lines, f"{url} is not on the course map"
        embeds = len(re.findall(r"^::: example ", (DOCS / lang / src).read_text(encoding="utf-8"), re.M))
        found = re.search(word, lines[url])
        assert found and int(found.group(1)) == embeds, f"{url}: {lines[url]!r} but the page embeds {embeds}"
    # the promise links to the About page; no made-up provenance line
    assert path_of(root + "about/") in {path_of(h) for h in home["links"]}
    assert "输出捕获于" not in home["text"] and "Captured on" not in home["text"], \
        "a provenance sample on the home page"
    page.goto(root + "about/")
    assert page.locator("h1").inner_text().rstrip("¶") == ("关于本站" if lang == "zh" else "About this site")
    assert page.locator("code", has_text="make capture").count() > 0  # the pipeline explanation moved here
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(root)
    page.screenshot(path=str(SCREENSHOTS / f"home-{lang}-desktop.png"))
    page.set_viewport_size(test_browser.PHONE)
    page.goto(root)
    page.screenshot(path=str(SCREENSHOTS / f"home-{lang}-375px.png"), full_page=True)


# ---------------------------------------------------------------------------------------------
# 3. Localisation: 404 per language, Chinese UI strings, lang, titles, keeping the place
# ---------------------------------------------------------------------------------------------

# Interface strings (titles, labels, placeholders, header/footer/nav texts) with Latin words and
# no Chinese character: on a Chinese page each one is an untranslated string. Product names and
# file paths are not UI strings.
UI_STRINGS_JS = """() => {
  const out = new Set();
  const latinOnly = (s) => !!s && /[A-Za-z]{3,}/.test(s) && !/[\\u4e00-\\u9fff]/.test(s) && !/\\.(py|ipynb)$/.test(s);
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
    const chrome = ".headerlink, .md-clipboard, .md-content__button, button";
    if (el.closest(".md-content__inner") && !el.matches(chrome)) continue;
    if (el.closest(".md-select__list")) continue;
    for (const a of ["title", "aria-label", "placeholder"]) {
      const v = el.getAttribute(a);
      if (latinOnly(v) && v !== document.querySelector(".md-header__topic .md-ellipsis")?.textContent.trim()) {
        out.add(`${el.tagName.toLowerCase()}[${a}]=${v}`);
      }
    }
  }
  for (const root of document.querySelectorAll(".md-footer, .md-header, .md-nav--primary, .md-search, .md-tabs")) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode());) {
      const t = n.textContent.trim();
      if (latinOnly(t) && !n.parentElement.closest(
          "script, code, a, .md-select__list, .md-source, .md-nav__link, .md-header__topic, " +
          ".md-tabs__link, .md-ellipsis")) {
        out.add(`text: ${t}`);
      }
    }
  }
  return [...out];
}"""

ZH_PAGES = ["", "autograd/", "notebooks/autograd/", "404.html"]


@pytest.mark.parametrize("rel", ZH_PAGES)
def test_chinese_pages_have_chinese_ui_strings(tab, base, rel):
    page = tab.page
    page.goto(base + rel)
    if page.locator(".highlight").count():
        page.locator(".highlight").first.hover()  # the copy button
    assert html_lang(page) == "zh-CN"
    english = page.evaluate(UI_STRINGS_JS)
    assert not english, f"{rel or 'home'}: English UI strings on a Chinese page: {english}"


# The language and the title of every other page: tests/browser/test_browser.py's crawl.


@pytest.mark.parametrize(("lang", "other"), [("zh", "en"), ("en", "zh")])
def test_404_page_per_language_and_its_switcher(tab, base, lang, other):
    page = tab.page
    page.goto(lang_root(base, lang) + "404.html")
    heading = page.locator("h1").inner_text()
    assert "404" in heading and (("页面不存在" in heading) if lang == "zh" else ("not found" in heading)), heading
    assert html_lang(page) == ("zh-CN" if lang == "zh" else "en")
    assert not test_browser.title_repeats(page.title()), page.title()
    test_browser.switch_language(page, other)
    assert page.url == lang_root(base, other) + "404.html"
    assert html_lang(page) == ("zh-CN" if other == "zh" else "en")
    assert not test_browser.title_repeats(page.title()), page.title()
    # its search looks in its own language
    results = search_pages(page, "autograd")
    assert results and all(r.startswith("/en/") == (other == "en") for r in results), results[:5]


LOAD_IMAGES_JS = """async () => {
  await Promise.all([...document.images].map((img) => {
    img.loading = "eager";
    return Promise.race([img.decode().catch(() => null), new Promise((r) => setTimeout(r, 10000))]);
  }));
  await document.fonts.ready;
}"""


@pytest.mark.parametrize(("rel", "lang", "other"), [("autograd/", "zh", "en"), ("training/", "en", "zh")])
def test_switching_language_keeps_the_section(tab, base, rel, lang, other):
    page = tab.page
    page.goto(lang_root(base, lang) + rel)
    rank = 2  # the third section heading
    target = page.locator(".md-content h2[id], .md-content h3[id]").nth(rank)
    # Lazily loaded figures above the heading change the layout when they arrive, which on a busy machine
    # can be after the scroll below settled (CI once saw the section before the reader's): load and decode
    # every image first, as the crawl does; then scroll until the heading stays put just under the header
    # (the reader's place the menu remembers).
    page.evaluate(LOAD_IMAGES_JS)
    for _ in range(20):
        page.evaluate("(el) => { el.scrollIntoView(); window.scrollBy(0, 40); }", target.element_handle())
        before = target.bounding_box()["y"]
        page.wait_for_timeout(150)
        if target.bounding_box()["y"] == before:
            break
    test_browser.switch_language(page, other)
    twin = page.locator(".md-content h2[id], .md-content h3[id]").nth(rank)
    twin_id = twin.get_attribute("id")
    # a Chinese id is percent-encoded in the URL (training/'s third heading since d41db5b)
    assert unquote(page.url).endswith("#" + twin_id), f"{page.url}: expected #{twin_id}"
    top = twin.bounding_box()["y"]
    assert 0 <= top < 200, f"the heading #{twin_id} is at y={top}, not at the top of the window"


# ---------------------------------------------------------------------------------------------
# 4. Accessibility: axe-core (vendored from npm, tests/vendor/axe-core/) in light and dark mode
# ---------------------------------------------------------------------------------------------

def test_axe_finds_no_violation(browser, base):
    """Of any impact (issue 44, item 8: Material's copy buttons made each chapter's code blocks unnamed
    navigation landmarks, a moderate ``landmark-unique``)."""
    total, lines = axe_count(browser, base)
    print(f"\naxe-core: {total} violations on {len(AXE_PAGES) * 2} pages, light and dark")
    assert total == 0, "\n".join(lines[:40])


# ---------------------------------------------------------------------------------------------
# 5. Phones (375 px): one width for code and outputs, copy buttons on no text, a narrow gutter
# ---------------------------------------------------------------------------------------------

PHONE_JS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const problems = [], widths = [];
  // code and outputs of each example share their left and right edges
  for (const marker of document.querySelectorAll(".pn-example")) {
    const blocks = [];
    for (const el of (""" + test_browser.EXAMPLE_PARTS_JS + """)(marker)) {
      if (el.matches(".highlight, .pn-output")) blocks.push(el);
    }
    for (const el of blocks) {
      const b = box(el), c = box(blocks[0]);
      widths.push(Math.round(b.width));
      if (Math.abs(b.left - c.left) > 1 || Math.abs(b.right - c.right) > 1) {
        problems.push(`${el.className} spans ${Math.round(b.left)}-${Math.round(b.right)} px, ` +
                      `the code above it ${Math.round(c.left)}-${Math.round(c.right)} px`);
      }
    }
  }
  // no copy button lies on a character of its block
  let buttons = 0;
  for (const button of document.querySelectorAll('button[data-md-type="copy"]')) {
    const b = box(button), pre = button.closest("pre"), code = pre && pre.querySelector("code");
    if (!code || !b.width) continue;
    buttons += 1;
    const clip = box(pre), walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode());) {
      const range = document.createRange();
      for (let i = 0; i < n.textContent.length; i++) {
        if (!n.textContent[i].trim()) continue;
        range.setStart(n, i); range.setEnd(n, i + 1);
        const r = range.getBoundingClientRect();
        const visible = r.right > clip.left && r.left < clip.right && r.bottom > clip.top && r.top < clip.bottom;
        if (visible && r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom) {
          problems.push(`the copy button of ${button.dataset.clipboardTarget} covers "${n.textContent[i]}"`);
          break;
        }
      }
    }
  }
  const gutters = [...document.querySelectorAll(".highlighttable .linenos")].map((g) => Math.round(box(g).width));
  return {problems, widths, buttons, gutters};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_phone_code_and_outputs(tab, base, lang):
    page = tab.page
    page.set_viewport_size(test_browser.PHONE)
    page.goto(lang_root(base, lang) + "autograd/")
    page.evaluate(test_browser.MOUNT_CODE_JS)
    got = page.evaluate(PHONE_JS)
    assert got["widths"] and got["buttons"] >= 2 and got["gutters"], got
    assert not got["problems"], got["problems"][:10]
    assert max(got["gutters"]) <= 24, f"line-number gutter {max(got['gutters'])} px wide on a phone"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".pn-output").first.scroll_into_view_if_needed()
    page.wait_for_timeout(400)
    page.screenshot(path=str(SCREENSHOTS / f"chapter-{lang}-autograd-375px.png"))
