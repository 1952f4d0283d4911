"""Embeds: each ``::: example <chapter>/<name>.py`` line of a page becomes the rendered example, read
from the store (never executed).

``Embeds.prepare`` (from ``on_page_markdown``) checks a page's embeds and keys each by the inputs of its
rendering, once per page: it returns a ``PreparedPage``, which is all the later steps read (the
verification line, ``times``; the Markdown cache, ``mdcache``, keyed by those keys; and
``EmbedExtension``, a Markdown extension added in ``on_config``, which renders the embeds and puts them in
place while the page's Markdown is converted, with their HTML in the stash). MkDocs converts a page inside
``Page.render``, with nothing of the plugin's passed in, so the last two find it as ``Embeds.page``. A page
whose conversion the Markdown cache holds is not converted, so its examples are not rendered. The
examples and their records come from the build's ``exampleindex.ExampleIndex``, and the downloads an
example block links to are made by ``downloads``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from pytorch_notes.pages import PageError, find_embeds, prose_lines
from pytorch_notes.parse import ExampleError, resolve_example
from pytorch_notes.render.html import Links, render_example
from pytorch_notes.render.templating import PACKAGE
from pytorch_notes.site.cache import digest
from pytorch_notes.site.common import log
from pytorch_notes.site.exampleindex import ExampleIndex
from pytorch_notes.site.urls import (
    chapter_notebook_url,
    example_ipynb_url,
    lang_root,
    new_issue_url,
    notebook_services,
    py_url,
    section_headings,
    src_language,
)
from pytorch_notes.store.records import StoreError
from pytorch_notes.store.untrusted import terminal_text


@dataclass
class PreparedPage:
    """A page's embeds as ``Embeds.prepare`` left them, each under (example id, occurrence): the digest of
    what its rendering reads (``keys``, in the page's order) and its Markdown, rendered when first asked for
    (``markdown``). ``page_name`` is the page's ``docs/...`` path."""

    page_name: str
    keys: dict[tuple[str, int], str] = field(default_factory=dict)
    todo: dict[tuple[str, int], Callable[[], str]] = field(default_factory=dict)
    rendered: dict[tuple[str, int], str] = field(default_factory=dict)

    def markdown(self, embed: tuple[str, int]) -> str | None:
        """The rendered Markdown of ``embed``, or None when the page has no such embed."""
        if embed not in self.rendered and embed in self.todo:
            self.rendered[embed] = self.todo.pop(embed)()
        return self.rendered.get(embed)


class Embeds:
    """The page the plugin's builds are embedding examples into (MkDocs renders one page at a time:
    ``on_page_markdown``, then its Markdown): its embeds, keyed and rendered from ``examples`` (the build's
    ``exampleindex.ExampleIndex``)."""

    def __init__(self, examples: ExampleIndex) -> None:
        self.examples = examples
        # the page the conversion due next renders (``EmbedPreprocessor``, ``mdcache``): the last prepared
        self.page: PreparedPage | None = None
        self.templates = PACKAGE  # the site's HTML templates (``templating.Templates``), set by each build

    def prepare(self, markdown: str, page, config, lang: str, page_name: str) -> PreparedPage:
        """Check every embed of a page and key its rendering from the store: the ``PreparedPage`` the
        verification line, the Markdown cache and ``EmbedPreprocessor`` read (also left as ``self.page``).

        Raises:
            PluginError: a malformed or misspelled embed, a missing example, an unreadable example or
                store file; the message starts with ``page:line:``. Stale or missing records and failed
                captures are logged as warnings (so ``mkdocs build --strict`` fails) and shown on the page.
        """
        try:
            embeds = find_embeds(markdown, page_name)
        except PageError as exc:
            raise PluginError(str(exc)) from None
        self.page = PreparedPage(page_name)
        _render(self.page, embeds, page, config, lang, self)
        return self.page


def _render(current: PreparedPage, embeds, page, config, lang: str, owner: Embeds) -> None:
    """Key a page's ``embeds`` in ``current``, each by what its rendering reads (the example's bytes, the
    stat of its store files, the language, its anchor and links, the override folder and the templates it
    holds; the rendering code and the templates' text, in the theme's overrides, are in every key of the
    cache: ``cache.Environment``), and leave their rendering for when the page is converted (``Embeds.prepare`` of
    ``owner``, which reads its examples and their freshness in ``owner.examples``)."""
    page_name = current.page_name
    page_url = page.file.url

    def url_for(site_path: str) -> str:
        return get_relative_url(site_path, page_url)

    chapter = src_language(page.file.src_uri)[1]  # the page, under docs/<lang>/
    anchors = section_headings(tuple(dict.fromkeys(e.rel for e in embeds)))  # the sections of its notebook
    examples = owner.examples
    for e in embeds:
        path = resolve_example(e.rel, examples.examples_dir)
        if not os.path.lexists(path):  # a link, a folder, ...: refused by parse_example below, naming it
            raise PluginError(f"{page_name}:{e.line}: example {e.rel!r} not found "
                              f"(expected the file examples/{e.rel})")
        try:
            example = examples.example(e.rel)
            fresh = examples.freshness(example)
        except (ExampleError, StoreError) as exc:
            raise PluginError(terminal_text(f"{page_name}:{e.line}: {exc}")) from None
        if fresh.state != "fresh":
            log.warning(f"{page_name}:{e.line}: outputs of examples/{e.rel} are {fresh.state} on every device "
                        f"(source changed since the last capture, or never captured); run `make capture`")
        if fresh.failure:
            log.warning(terminal_text(f"{page_name}:{e.line}: the last capture of examples/{e.rel} failed: "
                                      f"{fresh.failure.location}: {fresh.failure.message}"))  # a record's words
        root = lang_root(lang)
        notebook = root + chapter_notebook_url(chapter, config.use_directory_urls) + "#" + anchors[e.rel][1]
        links = Links(py=url_for(py_url(lang, e.rel)), ipynb=url_for(root + example_ipynb_url(e.rel)),
                      notebook=url_for(notebook), new_issue=new_issue_url(config),
                      page_url=(getattr(config, "site_url", None) or "") + page_url,
                      **notebook_services((getattr(config, "extra", None) or {}).get("published_notebooks", ""),
                                          lang, e.rel))
        tpl = owner.templates
        current.keys[(e.rel, e.occurrence)] = digest([lang, e.anchor, page_url, asdict(links), example.sha256,
                                                      examples.store_state(e.rel), str(tpl.overrides), tpl.overridden])
        current.todo[(e.rel, e.occurrence)] = functools.partial(_markdown, example, fresh, lang, url_for, links,
                                                                e.anchor, tpl)


def _markdown(*args) -> str:
    return render_example(*args)[0]


class EmbedPreprocessor(Preprocessor):
    """Replace each embed line with its rendered example, at the line's indentation.

    The example's code cells stay fenced code blocks (highlighted by pymdownx.superfences, which runs
    after this); each of its raw HTML blocks (outputs, notices, the provenance line) is stored in the
    Markdown instance's HTML stash, as mkdocstrings does, so no later Markdown processing can touch it,
    whatever the block holds and however deep it is nested (tabs, admonitions, lists). The page's
    rendered embeds are those of ``embeds.page`` (the ``PreparedPage`` of ``Embeds.prepare``).
    """

    def __init__(self, md, embeds: Embeds | None) -> None:
        super().__init__(md)
        self.embeds = embeds

    def run(self, lines: list[str]) -> list[str]:
        current = self.embeds.page if self.embeds is not None else None
        if current is None:
            return lines
        out = list(lines)
        for e in reversed(find_embeds("\n".join(lines), current.page_name)):
            rendered = current.markdown((e.rel, e.occurrence))
            if rendered is None:
                continue
            block = rendered.splitlines()
            prose = {n for n, _ in prose_lines(rendered)}
            for i, line in enumerate(block):
                if i + 1 in prose and line.lstrip().startswith("<"):
                    block[i] = line[: len(line) - len(line.lstrip())] + self.md.htmlStash.store(line.strip())
            out[e.line - 1: e.line] = [e.indent + ln if ln else ln for ln in block]
        return out


class EmbedExtension(Extension):
    """The ``::: example`` syntax as a Markdown extension (added to every page's Markdown by ``on_config``),
    putting in place the embeds that ``embeds`` prepared."""

    def __init__(self, embeds: Embeds | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.embeds = embeds

    def extendMarkdown(self, md) -> None:  # noqa: N802 - Python-Markdown's name
        # After normalize_whitespace (30), before the fenced code of pymdownx.superfences (25).
        md.preprocessors.register(EmbedPreprocessor(md, self.embeds), "pytorch_notes_embed", 28)

