"""The stylesheets nbconvert inlines in every notebook page (~590 KB, the same on each), moved out.

Each inline ``<style>`` block of at least ``NOTEBOOK_CSS_MIN`` characters is replaced by a link to a
content-addressed file ``assets/notebook/<digest>.css`` of the site (same cascade order), so a reader
downloads it once. mkdocs-jupyter's cache entries are kept in that slim form, with a placeholder link
``pytorch-notes-css:<digest>`` and the stylesheet stored in ``.cache/mkdocs-jupyter/pytorch-notes-css/``:
a warm build then reads ~40 KB per notebook page instead of ~640 KB. ``link_stylesheets`` turns either
form, a fresh nbconvert render or a slim entry, into the same page (``tests/test_prewarm.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import get_relative_url

from pytorch_notes.settings import REPO_ROOT

NOTEBOOK_CSS_MIN = 1024  # inline style blocks at least this long (characters) move to a shared file
_STYLE_OPEN, _STYLE_CLOSE = '<style type="text/css">', "</style>"


def link_stylesheets(html: str, page, config) -> str:
    """``html`` of a notebook page with each large stylesheet linked from the site, relative to ``page``.
    A render straight from nbconvert also has its cache entry rewritten in the slim form."""
    slim = store_lifted_stylesheets(html)
    if slim is not html:
        _slim_jupyter_cache_entry(page, config)
    return _STYLESHEET_LINK.sub(lambda m: f'<link rel="stylesheet" href="{_site_css(m[1], config, page)}">', slim)


_STYLESHEET_LINK = re.compile(r'<link rel="stylesheet" href="pytorch-notes-css:([0-9a-f]{16})">')
# beside mkdocs-jupyter's entries, whose slim form needs them: whatever removes those removes these too
_CSS_CACHE = REPO_ROOT / ".cache" / "mkdocs-jupyter" / "pytorch-notes-css"


def _css_digest(css: str) -> str:
    digest = _CSS_DIGESTS.get(css)
    if digest is None:
        digest = _CSS_DIGESTS[css] = hashlib.sha256(css.encode("utf-8")).hexdigest()[:16]
    return digest


_CSS_DIGESTS: dict[str, str] = {}  # stylesheet text -> its digest, so each is hashed once per process


def lift_stylesheets(html: str) -> tuple[str, dict[str, str]]:
    """Replace each inline ``<style>`` block of at least ``NOTEBOOK_CSS_MIN`` characters with a link to
    ``pytorch-notes-css:<digest>``. Returns (the html, {digest: stylesheet}); html without such blocks
    is returned as it is."""
    parts, at, lifted = [], 0, {}
    while (start := html.find(_STYLE_OPEN, at)) != -1:
        end = html.find(_STYLE_CLOSE, start)
        if end == -1:
            break
        css = html[start + len(_STYLE_OPEN):end]
        parts.append(html[at:start])
        if len(css) < NOTEBOOK_CSS_MIN:
            parts.append(html[start:end + len(_STYLE_CLOSE)])
        else:
            digest = _css_digest(css)
            lifted[digest] = css
            parts.append(f'<link rel="stylesheet" href="pytorch-notes-css:{digest}">')
        at = end + len(_STYLE_CLOSE)
    if not lifted:
        return html, {}
    parts.append(html[at:])
    return "".join(parts), lifted


def store_lifted_stylesheets(html: str) -> str:
    """``lift_stylesheets(html)``, with each lifted stylesheet stored in ``.cache/mkdocs-jupyter/pytorch-notes-css/``
    (where ``link_stylesheets`` finds it). Returns ``html`` itself when it has no such block."""
    slim, stylesheets = lift_stylesheets(html)
    for digest, css in stylesheets.items():
        target = _CSS_CACHE / f"{digest}.css"
        if not target.exists():
            _CSS_CACHE.mkdir(parents=True, exist_ok=True)
            _atomic_write(target, css)
    return slim


def _slim_jupyter_cache_entry(page, config) -> None:
    """Rewrite mkdocs-jupyter's cache entry of ``page`` with its stylesheets lifted (``lift_stylesheets``;
    the stylesheets are in ``.cache/mkdocs-jupyter/pytorch-notes-css/``): a warm build then reads ~40 KB per
    notebook page instead of ~640 KB, and the page comes out the same (``slim_notebook_page`` links
    both forms alike)."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config["cache"]:
        return
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path  # noqa: PLC0415

    path = _get_cache_path(plugin.config["cache_dir"],
                           _compute_cache_key(page.file.abs_src_path, plugin.config, plugin.config["execute"]))
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    entry["content"] = store_lifted_stylesheets(entry["content"])
    _atomic_write(path, json.dumps(entry))


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


_WRITTEN: set[Path] = set()  # the stylesheets written into the site by the current build


def new_build() -> None:
    """Forget which stylesheets were written (``on_pre_build``): a full build writes each one again,
    or ``sitedir.remove_stale`` would take it for a leftover of the last build."""
    _WRITTEN.clear()


def _site_css(digest: str, config, page) -> str:
    """Write the stylesheet ``digest`` (from ``.cache/mkdocs-jupyter/pytorch-notes-css/``) once per build
    to ``assets/notebook/<digest>.css`` in the site; its URL from ``page``.

    Raises:
        PluginError: the stylesheet is missing from the cache (a partly deleted ``.cache``): ``make clean``.
    """
    name = f"assets/notebook/{digest}.css"
    target = Path(config.site_dir) / name
    if target not in _WRITTEN:
        source = _CSS_CACHE / f"{digest}.css"
        if not source.exists():
            raise PluginError(f"{page.file.src_uri}: stylesheet {source} is missing from the build cache; "
                              "run `make clean` and build again")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        _WRITTEN.add(target)
    return get_relative_url(name, page.url)
