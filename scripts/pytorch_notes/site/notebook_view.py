"""A chapter notebook's page, once mkdocs-jupyter rendered it (``on_page_content``, ``on_nav``,
``on_post_build``): title, template and downloads; no inline stylesheets; figures as files; kept out of
the search index; and mkdocs-jupyter's render cache kept for every language.
"""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

from mkdocs.utils import get_relative_url

from pytorch_notes.render.escape import field
from pytorch_notes.render.html import figure_alt
from pytorch_notes.render.kinds import FIGURE_ALT
from pytorch_notes.render.notebook import chapter_notebook_title
from pytorch_notes.render.strings import ui
from pytorch_notes.site import bundles, notebook_styles, upstream
from pytorch_notes.site.notebooks import NotebookSite, is_notebook_page
from pytorch_notes.site.urls import absolute_page_url, chapter_ipynb_url, lang_root, page_url

_DATA_PNG = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=\s]+)"')
_IMG = re.compile(r"<img\b[^>]*>")
_ALT = re.compile(r'\salt="[^"]*"')
NBCONVERT_ALT = "No description has been provided for this image"  # nbconvert's alt for an image without one


def name_pages(pages) -> None:
    """``on_nav``: a notebook page is listed (and its nav entry titled, before it is rendered) by its
    chapter's title; mkdocs-jupyter keeps that title (``ignore_h1_titles``)."""
    for page in pages:
        if is_notebook_page(page):
            page.title = page.file.chapter.title


def prepare_page(html: str, page, config, tokens: notebook_styles.TokenStyles, examples) -> str:
    """``on_page_content`` of a notebook page (other pages pass through); ``tokens``: the Pygments tokens
    the stylesheet styles, ``examples`` (``exampleindex.ExampleIndex``): the records the chapter page shows.

    * its window title is the notebook's (``自动求导 · 笔记本``) and its template ``notebook.html``, which
      shows under the title the chapter notebook's ``.ipynb``, the chapter's zip and a link back to the
      chapter, all relative to the page (``meta.pn_notebook``);
    * nbconvert's inline ``<style>`` blocks go: ``docs/assets/jupyter.css`` has the rules the notebook
      pages need (``notebook_styles``), linked by the template; code tokens no rule styles are unwrapped
      (``tokens``), and the copy buttons' icons drawn by CSS (``_slim_markup``);
    * each figure whose bytes the site serves as a file (``render.html.figure_assets``, the same ones the
      chapter page shows) is linked instead of inlined as base64, with the alt text the chapter page gives it
      in the page's language (``render.html.figure_alt``) instead of nbconvert's placeholder, "No description
      has been provided for this image";
    * the header cell's absolute chapter link (for the downloaded file) becomes relative to the page;
    * the page stays out of the search index (``meta.search.exclude``, read by Material's search
      plugin): it repeats the examples the chapter page embeds, and the chapter's entries carry their code.
    """
    if not is_notebook_page(page):
        return html
    chapter, lang = page.file.chapter, page.file.lang
    text = ui(lang)
    use_dir = config.use_directory_urls
    here = page.url
    chapter_link = get_relative_url(lang_root(lang) + page_url(chapter.page, use_dir), here)
    page.meta["title"] = chapter_notebook_title(chapter.title, lang)
    page.meta["template"] = "notebook.html"
    page.meta["pn_notebook"] = {
        "label": text["nb_actions"], "ipynb_text": text["nb_actions_ipynb"], "zip_text": text["nb_actions_zip"],
        "chapter_text": text["nb_actions_chapter"].format(chapter=chapter.title),
        "ipynb": get_relative_url(lang_root(lang) + chapter_ipynb_url(chapter.page), here),
        "zip": get_relative_url(bundles.chapter_url(lang, chapter), here),
        "chapter": chapter_link,
    }
    page.meta.setdefault("search", {})["exclude"] = True
    absolute = absolute_page_url(config, lang, chapter.page)
    if absolute:
        html = html.replace(f'href="{absolute}"', f'href="{chapter_link}"')
    html = _slim_markup(tokens.slim_code(notebook_styles.split_styles(html)[0]))
    return _link_figures(_title_anchor(html, page), chapter.examples, here, examples, lang)


def _title_anchor(html: str, page) -> str:
    """The title's id as the page's table of contents has it (``_1`` for a Chinese title): mkdocs-jupyter
    leaves a heading without Latin letters an empty id, and Material's "skip to content" link points at
    the first entry of the table of contents."""
    first = next(iter(page.toc or []), None)
    if first is None or first.level != 1 or '<h1 id="">' not in html:
        return html
    anchor = first.id
    return html.replace('<h1 id="">', f'<h1 id="{anchor}">', 1).replace(
        '<a class="anchor-link" href="#">', f'<a class="anchor-link" href="#{anchor}">', 1)


_COPY_ICON = re.compile(r'<svg aria-hidden="true" class="clipboard-copy-icon"[^>]*>.*?</svg>', re.S)


def _slim_markup(html: str) -> str:
    """What every notebook page repeats, shorter: the copy button's icon (an inline SVG per code cell)
    becomes an empty ``span.pn-copy-icon`` that ``docs/assets/notebook.css`` draws; nbconvert's Mermaid
    loader (it imports Mermaid from a CDN when a cell holds a diagram, which none does) goes."""
    html = _COPY_ICON.sub('<span aria-hidden="true" class="clipboard-copy-icon pn-copy-icon"></span>', html)
    start = html.find('<script type="module">')
    if start != -1 and "jp-Mermaid" in html[start:start + 400]:
        end = html.find("</script>", start)
        if end != -1:
            html = html[:start] + html[end + len("</script>"):]
    return html


def _link_figures(html: str, rels, here: str, examples, lang: str) -> str:
    """Replace each inlined PNG that is one of the chapter's figure files by a link to that file, and give
    every image the alt text of its figure on the chapter page of ``lang`` (a figure nbconvert got no file
    for, should there be one, the notebook's generic line rather than nbconvert's English placeholder)."""
    files: dict[str, tuple[str, str]] = {}
    for rel in rels:
        example, record = examples.shown_example(rel)
        cells = {c.index: c for c in record.cells} if record is not None else {}
        shown = {c.index: c for c in example.cells} if example is not None else {}
        for n, ((index, pos), asset) in enumerate(examples.figures(record).items(), start=1):
            out = cells[index].outputs[pos]
            alt = figure_alt(out, shown[index], lang, n, rel) if index in shown else ui(lang)["nb_figure"]
            files["".join(out.data.split())] = (asset.path, alt)

    def image(m: re.Match) -> str:
        tag, alt = m.group(0), ui(lang)["nb_figure"]
        if (data := _DATA_PNG.search(tag)) and (found := files.get("".join(data.group(1).split()))):
            path, alt = found
            tag = tag.replace(data.group(0), f'src="{get_relative_url(path, here)}" loading="lazy"')
        elif _ALT.search(tag) and NBCONVERT_ALT not in tag:
            return tag  # an image with an alt text of its own
        alt = f' alt="{html_lib.escape(field(alt, FIGURE_ALT), quote=True)}"'
        return _ALT.sub(lambda _: alt, tag, count=1) if _ALT.search(tag) else tag.replace("<img", "<img" + alt, 1)

    return _IMG.sub(image, html)


class RenderCache:
    """mkdocs-jupyter's render cache, kept for every language with its documented ``cache`` option only.

    mkdocs-jupyter's ``on_post_build`` removes the cache entries its build did not render. Under
    mkdocs-static-i18n every language is a build of its own, and a dirty rebuild of ``make serve`` renders a
    few pages: without this each build would remove the other language's entries (and a rebuild those of the
    pages it skipped), and the next would render every notebook again. So ``hold`` (``on_post_build`` of
    each language's build, before mkdocs-jupyter's) turns the option off while its ``on_post_build`` runs,
    ``release`` (the next build's ``on_config``, the end of the outer build, a failed build) turns it on
    again, and ``evict`` (the end of the outer build) removes what mkdocs-jupyter would have removed with
    every language's notebooks counted: the entries of no chapter notebook of this build."""

    def __init__(self) -> None:
        self.held = None  # mkdocs-jupyter's plugin whose cache option ``hold`` turned off

    def hold(self, config) -> None:
        plugin = config.plugins.get("mkdocs-jupyter")
        if plugin is not None and plugin.config["cache"]:
            plugin.config["cache"], self.held = False, plugin

    def release(self) -> None:
        if self.held is not None:
            self.held.config["cache"], self.held = True, None

    @staticmethod
    def evict(site: NotebookSite, config) -> int:
        """Remove the entries of mkdocs-jupyter's cache folder (its ``cache_dir``) that belong to no chapter
        notebook of ``site`` (``notebooks.NotebookSite``, every language); returns how many."""
        plugin = config.plugins.get("mkdocs-jupyter")
        if plugin is None or not plugin.config["cache"]:
            return 0
        folder = Path(plugin.config["cache_dir"])
        if not folder.is_dir():
            return 0
        kept = {upstream.jupyter_cache_path(plugin.config, path) for path in site.sources()}
        stale = [entry for entry in folder.glob("*.json") if entry not in kept]
        for entry in stale:
            entry.unlink(missing_ok=True)
        return len(stale)
