"""Embeds: replace each ``::: example <chapter>/<name>.py`` line of a page with the rendered example,
read from the store (never executed)."""

from __future__ import annotations

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

from pytorch_notes.pages import PageError, find_embeds
from pytorch_notes.parse import ExampleError, parse_example, resolve_example
from pytorch_notes.render.html import Links, figure_assets, render_example
from pytorch_notes.settings import EXAMPLES_DIR, LANGUAGES
from pytorch_notes.site.common import log
from pytorch_notes.site.urls import notebook_urls
from pytorch_notes.store.records import StoreError, freshness


def shown_record(rel: str):
    """The record a page shows for example ``rel`` (``Freshness.preferred``), or None (reported elsewhere)."""
    try:
        return freshness(parse_example(resolve_example(rel))).record
    except (ExampleError, StoreError, OSError):
        return None  # on_page_markdown stops the build naming the page and line


def embed_examples(markdown: str, page, config, lang: str, page_name: str) -> str:
    try:
        embeds = find_embeds(markdown, page_name)
    except PageError as exc:
        raise PluginError(str(exc)) from None
    if not embeds:
        return markdown
    lines = markdown.splitlines()
    page_url = page.file.url

    def url_for(site_path: str) -> str:
        return get_relative_url(site_path, page_url)

    for e in reversed(embeds):
        path = resolve_example(e.rel)
        if not path.is_file():
            raise PluginError(f"{page_name}:{e.line}: example {e.rel!r} not found "
                              f"(expected the file examples/{e.rel})")
        try:
            example = parse_example(path)
            fresh = freshness(example)
        except (ExampleError, StoreError) as exc:
            raise PluginError(f"{page_name}:{e.line}: {exc}") from None
        if fresh.state != "fresh":
            log.warning(f"{page_name}:{e.line}: outputs of examples/{e.rel} are {fresh.state} "
                        f"(source changed since the last capture, or never captured); run `make capture`")
        if fresh.failure:
            log.warning(f"{page_name}:{e.line}: the last capture of examples/{e.rel} failed: "
                        f"{fresh.failure.location}: {fresh.failure.message}")
        lang_root = "" if lang == LANGUAGES[0] else f"{lang}/"
        nb_page, nb_file = notebook_urls(e.rel, config.use_directory_urls)
        links = Links(py=url_for(f"examples/{e.rel}"),
                      ipynb=url_for(lang_root + nb_file),
                      notebook=url_for(lang_root + nb_page))
        rendered, _ = render_example(example, fresh, lang, url_for, links)
        lines[e.line - 1: e.line] = rendered.splitlines()
    return "\n".join(lines) + "\n"


def example_files(files, config) -> None:
    """Add each example's ``.py`` download and the figures of all its records to the site, once at
    its root for both languages."""
    for path in sorted(EXAMPLES_DIR.glob("*/*.py")):
        rel = path.relative_to(EXAMPLES_DIR).as_posix()
        if rel.startswith("_"):
            continue
        files.append(File.generated(config, f"examples/{rel}", abs_src_path=str(path)))
        try:
            devices = freshness(parse_example(path)).devices.values()
        except (ExampleError, StoreError):
            continue  # reported with page and line by on_page_markdown
        for dev in devices:
            for asset in figure_assets(dev.record).values():
                files.append(File.generated(config, asset.path, content=asset.data))
