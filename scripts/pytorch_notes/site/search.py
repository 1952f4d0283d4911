"""The search index: one per language (mkdocs-static-i18n writes one for all), also for ``make offline``."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site import searchmessages, searchweights, searchwords, upstream
from pytorch_notes.site.urls import lang_of_url, lang_root

# An example's device tabs (render/html.py) as pymdownx.tabbed writes them: the marker, the tab set, its radio
# inputs, then the labels. The labels ("NVIDIA H100 · CUDA 13.0", "CPU") on every example made "CUDA" a word of
# nearly every page, and the devices chapter fell out of the first three results for "CUDA张量".
_EXAMPLE_TAB_LABELS = re.compile(r'(<div class="pn-example"[^>]*></div>\s*<div class="tabbed-set[^"]*"[^>]*>'
                                 r'(?:\s*<input[^>]*>)*\s*<div class="tabbed-labels")>')


def exclude_example_tab_labels(html: str) -> str:
    """``html`` (a page's content, ``on_page_content``) with ``data-search-exclude`` on the labels of the
    examples' device tabs: Material's search skips an element that has it, and removes the attribute
    from the page afterwards. Other content tabs keep their labels searchable."""
    return _EXAMPLE_TAB_LABELS.sub(r'\1 data-search-exclude="true">', html)


_CODE_BLOCK = re.compile(r"<pre><code>(.*?)</code></pre>", re.S)
BOILERPLATE_SHARE = 0.25  # a code line on at least this share of a language's pages with code
# A short paragraph on its own, as Material indexes an admonition's title: "<p>Summary</p>"
_SHORT_PARAGRAPH = re.compile(r"<p>([^<]{1,40})</p>")
_PARAGRAPH = "\x00p"  # marks a paragraph among the code lines of an entry (_code_lines)


def without_boilerplate_code(index: dict, share: float = BOILERPLATE_SHARE) -> dict:
    """A copy of a Material search index (``{"config", "docs"}``, one language) without the code lines that
    the examples of many pages repeat: ``import torch``, ``torch.manual_seed(0)``, the device line,
    ``plt.show()``... (a line counts once per page; it goes when at least ``share`` of the pages whose
    entries hold code have it). They made "device" or "seed" words of nearly every page, and the chapter
    that explains them lost to pages that only use them; its prose still holds the words.

    Measured on tests/search_queries.json (2026-11-27, recall@3 zh/en): 0.910/0.926 with every line,
    0.912/0.931 without those on a quarter of the pages (21 lines) or on 15 of 34 (11 lines).

    Short paragraphs that as many pages repeat go too, counted apart from the code: the title of every
    chapter's closing tip, "Summary" (小结), made "keras model.summary" find the chapters with most prose
    instead of torchinfo's summary in layers (issue 41: with ten chapters more, 26 English queries that had
    found their page no longer did)."""
    docs = index.get("docs", [])
    common = _boilerplate([(d, _code_lines(d)) for d in docs], share)
    return {**index, "docs": [_strip(d, common) for d in docs]} if common else index


def _code_lines(doc: dict) -> frozenset[str]:
    """The entry's code lines, and its short paragraphs marked with ``_PARAGRAPH``."""
    text = doc.get("text", "")
    return frozenset([line.strip() for block in _CODE_BLOCK.findall(text) for line in block.split("\n")
                      if line.strip()] + [_PARAGRAPH + p for p in _SHORT_PARAGRAPH.findall(text)])


def _boilerplate(lines: list[tuple[dict, frozenset[str]]], share: float = BOILERPLATE_SHARE) -> frozenset[str]:
    """The code lines and short paragraphs (``without_boilerplate_code``) of the entries in ``lines``: (entry,
    its ``_code_lines``). Each kind counts against the pages that have that kind."""
    found_kinds = set()
    for kind in (False, True):  # code lines, then paragraphs
        of_page: dict[str, set[str]] = {}
        for doc, found in lines:
            mine = {x for x in found if x.startswith(_PARAGRAPH) == kind}
            if mine:
                of_page.setdefault(doc["location"].split("#")[0], set()).update(mine)
        pages = Counter(x for mine in of_page.values() for x in mine)  # line -> pages with it
        found_kinds |= {x for x, n in pages.items() if n >= max(2, share * len(of_page))}
    return frozenset(found_kinds)


def _strip(doc: dict, common: frozenset[str]) -> dict:
    if not common or "text" not in doc:
        return doc

    def strip(block: re.Match) -> str:
        kept = [line for line in block.group(1).split("\n") if line.strip() not in common]
        return "<pre><code>" + "\n".join(kept) + "</code></pre>"

    text = _CODE_BLOCK.sub(strip, doc["text"])
    text = _SHORT_PARAGRAPH.sub(lambda m: "" if _PARAGRAPH + m.group(1) in common else m.group(0), text)
    return {**doc, "text": text}


class Written:
    """Each language's search entries as ``split_search_index`` last wrote them (``without_boilerplate_code``,
    ``searchwords.mark_index``) with their words, by the identity of the entry each came from. Under
    ``make serve`` the entries of the pages a rebuild did not redo are the same objects
    (``incremental.Serve.serve_index``), so a rebuild processes the rebuilt pages' entries only (the
    whole index again when the boilerplate lines change), and so are the messages they quote
    (``searchmessages``: listing them from every entry was a fifth of a served rebuild after a page edit,
    py-spy, 2026-11-29). Held by the plugin."""

    def __init__(self) -> None:
        # lang -> id(entry) -> (entry, lines, common, written, words, messages)
        self.known: dict[str, dict[int, tuple]] = {}
        self.quoted: dict[str, list[str]] = {}  # lang -> the messages of the entries last written

    def docs(self, lang: str, docs: list[dict]) -> tuple[list[dict], Counter]:
        """The written entries of ``docs`` (``lang``'s index) and their words (``searchwords.vocabulary``)."""
        known, kept, out, words, quoted = self.known.get(lang, {}), {}, [], Counter(), set()
        hits = [known[id(d)] if id(d) in known and known[id(d)][0] is d else (d, _code_lines(d)) for d in docs]
        common = _boilerplate([hit[:2] for hit in hits])
        for hit in hits:
            if len(hit) == 2 or hit[2] != common:
                written = searchwords.mark_entry(_strip(hit[0], common))
                hit = (*hit[:2], common, written, searchwords.vocabulary([written]),
                       searchmessages.messages([written]))
            kept[id(hit[0])] = hit
            out.append(hit[3])
            words.update(hit[4])
            quoted.update(hit[5])
        self.known[lang] = kept
        self.quoted[lang] = sorted(quoted)
        return out, words

    def messages(self, lang: str) -> list[str]:
        """The messages (``searchmessages.messages``) of the entries ``docs`` last wrote for ``lang``, sorted."""
        return self.quoted.get(lang, [])


def split_search_index(config, serve, written: Written) -> None:
    """Give each language its own search index containing only its pages (under ``make serve``, from the
    entries ``serve``, ``incremental.Serve``, recorded page by page; ``written`` holds what the last one wrote).

    mkdocs-static-i18n writes the entries of all languages to ``search/search_index.json``.
    Material loads ``<base>/search/search_index.json``. The default language keeps
    ``search/search_index.json`` with its pages only; each other language gets
    ``<lang>/search/search_index.json`` with locations relative to ``<lang>/``, and the
    template override ``docs/overrides/main.html`` sets ``base`` of its pages to ``<lang>/``.
    """
    upstream.fix_lunr_token_set_keys(config.site_dir)  # lunr's automaton, which some indexes broke
    if config.plugins.get("i18n") is None:
        return  # one language: Material's index is it (the plugin calls this at the end of the outer build)
    site = Path(config.site_dir)
    index_path = site / "search" / "search_index.json"
    if not index_path.exists():
        return
    index = json.loads(index_path.read_text(encoding="utf-8"))
    by_lang = {lang: [] for lang in LANGUAGES}
    for doc in index["docs"]:
        loc = doc["location"]
        lang = lang_of_url(loc)
        if lang != LANGUAGES[0]:  # locations are relative to that language's root
            doc = {**doc, "location": loc[len(lang_root(lang)):]}
        by_lang[lang].append(doc)
    stop = searchwords.lunr_stop_words()
    for lang, docs in by_lang.items():
        target = index_path if lang == LANGUAGES[0] else site / lang / "search" / "search_index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        entries = serve.serve_index(lang, index) or {**index, "docs": docs}  # make serve: page by page
        # make serve's next patch starts from the entries as Material wrote them: which code lines are
        # boilerplate depends on every page
        serve.remember_search(lang, entries)
        # without_boilerplate_code, then Chinese words marked as the browser marks a query (searchwords.py)
        docs, words = written.docs(lang, entries.get("docs", []))
        docs = searchweights.weigh_contents(docs)  # a table of contents (the course map) weighs less
        text = json.dumps({**entries, "docs": docs}, ensure_ascii=False, separators=(",", ":"))
        target.write_text(text, encoding="utf-8")
        target.with_name(Path(searchwords.VOCABULARY_FILE).name).write_text(
            searchwords.vocabulary_script(words, stop, written.messages(lang)), encoding="utf-8")
        if _offline_enabled(config):
            _write_offline_search_script(target, text)


def _offline_enabled(config) -> bool:
    """True when Material's offline plugin is on (``make offline``: ``OFFLINE=true``)."""
    plugin = config.plugins.get("material/offline") or config.plugins.get("offline")
    return bool(plugin is not None and plugin.config.enabled)


def _write_offline_search_script(index_json: Path, text: str) -> None:
    """Write ``search_index.js`` beside ``index_json``: the index as a script, for file://.

    From file://, Material loads ``<base>/search/search_index.js`` with a script tag and reads the
    global ``__index`` (a fetch of the JSON would be blocked). Its offline plugin writes that script
    from the merged index of all languages before this hook splits it, so each language's script is
    rewritten here from that language's index ``text``.
    """
    index_json.with_name("search_index.js").write_text(f"var __index = {text}", encoding="utf-8")


# A start tag Material's search parser skips with everything inside it: ``data-search-exclude``, or the
# line numbers of a code block (``class="linenodiv"``); material/plugins/search/plugin.py, Parser.
_SKIPPED = re.compile(r'<(?P<tag>[a-zA-Z][\w-]*)\b(?P<attrs>[^>]*?(?:\sdata-search-exclude(?=[\s=/>])|'
                      r'\sclass="linenodiv")[^>]*)>')
_HEADING = re.compile(r"<h[1-6][\s>]", re.I)
_CODE = re.compile(r"(<code\b[^>]*>)(.*?)(</code>)", re.S)
_SPAN_TAG = re.compile(r"</?span\b[^>]*>")  # Pygments' tokens: the indexer keeps their text, not the tags


def index_view(content: str) -> str:
    """``content`` (a page's HTML) as Material's search indexing reads it, lighter: each element the
    indexer skips whole (``_SKIPPED``) is emptied, its start and end tags kept, so the parser's stack and
    sections are the same and the entries are equal (``tests/site/test_search_index.py``, on a page with each
    kind of skipped element). The second device tab, the provenance lines and the line numbers are more
    than half of a chapter's HTML, so Material parses about half as much. An element holding a heading,
    or one whose end is not found, is left as it is. (Material compares elements by tag name, so a
    ``<div>`` inside a skipped ``<div>`` would end the skipping early; emptied, it cannot.) Inside
    ``<code>`` the highlighter's ``<span>`` tags go too: the indexer adds no text for a span and joins the
    text around it, so the entries stay the same from a third of the tags."""
    out, pos = [], 0
    for m in _SKIPPED.finditer(content):
        if m.start() < pos:
            continue  # inside an element emptied already
        tag = m.group("tag")
        nested = re.compile(rf"<(/?){re.escape(tag)}[\s>/]", re.I)
        depth, end = 1, m.end()
        while depth:
            if (n := nested.search(content, end)) is None:
                return _plain_code("".join(out) + content[pos:])
            depth += -1 if n.group(1) else 1
            end = content.index(">", n.end() - 1) + 1
        if _HEADING.search(content, m.end(), end):
            continue
        out += [content[pos:m.start()], f"<{tag}{m.group('attrs')}></{tag}>"]
        pos = end
    out.append(content[pos:])
    return _plain_code("".join(out))


def _plain_code(html: str) -> str:
    return _CODE.sub(lambda c: c.group(1) + _SPAN_TAG.sub("", c.group(2)) + c.group(3), html)


_SET_ASIDE = "pytorch_notes_content_set_aside"  # a key of the page's template context, for a moment


def set_aside_unsearched_content(context: dict, page) -> None:
    """Hand Material's search plugin an empty ``content`` for a page kept out of the index that holds no
    ``data-search-*`` attribute (``on_page_context``, just before Material's at priority 0).

    After indexing a page, Material removes ``data-search-*`` attributes from its HTML with a regular
    expression over all of it, also on a page it does not index. The chapter notebook pages are kept out
    of the index (``notebook_view``: ``meta.search.exclude``) and are most of the site's HTML, where the
    substitution changes nothing.
    ``put_back_content`` (just after Material's) restores it before the page is rendered."""
    content = page.content or ""
    if (page.meta or {}).get("search", {}).get("exclude") and "data-search-" not in content:
        context[_SET_ASIDE] = content
        page.content = ""


def put_back_content(context: dict, page) -> None:
    """Give back the content ``set_aside_unsearched_content`` took (``on_page_context``, after Material's)."""
    if _SET_ASIDE in context:
        page.content = context.pop(_SET_ASIDE)
