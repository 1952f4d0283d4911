"""The ``weight`` section: what a browser without cache fetches for each page, and the search index sizes."""

from __future__ import annotations

import re
import statistics
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pytorch_notes.settings import LANGUAGES

from benchmarks.figures import Figure
from benchmarks.repo import BenchError

# ---------------------------------------------------------------- 5. page weight


class _AssetRefs(HTMLParser):
    """Collects the URLs a page makes a browser fetch: stylesheets, icons, scripts, images, media."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        rel = (a.get("rel") or "").lower().split()
        if tag == "link" and {"stylesheet", "icon", "preload", "modulepreload"} & set(rel):
            self.urls.append(a.get("href") or "")
        elif tag in ("script", "img", "source", "embed", "audio", "video", "track", "iframe") and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "object" and a.get("data"):
            self.urls.append(a["data"])
        if tag == "video" and a.get("poster"):
            self.urls.append(a["poster"])


_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")


def _resolve(site: Path, base: Path, url: str) -> Path | None:
    """Local file that ``url`` (found in ``base``, a file of the site) points to; None if external or data."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    path = unquote(parts.path)
    target = site / path.lstrip("/") if path.startswith("/") else base.parent / path
    return target / "index.html" if target.is_dir() else target


@dataclass
class PageWeight:
    """Bytes a browser without cache fetches for one page: the html, then every asset it references."""

    page: str
    bytes: int
    gzip_bytes: int
    assets: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)


_GENERATOR = re.compile(r'<meta\s+name="generator"\s+content="mkdocs')


def page_weights(site: Path) -> list[PageWeight]:
    """Weight of each page of the built site ``site`` (404 page left out).

    Pages are the HTML files MkDocs rendered (they carry its ``generator`` meta tag); HTML files
    copied from docs/ as they are, such as template overrides, are not pages.

    Counts the html, the stylesheets, scripts, icons and images it references, and files that those
    stylesheets reference through ``url()``. Each asset counts once per page. The search index is not
    counted (the search worker fetches it, not the page). Sizes are bytes on disk (uncompressed) and
    zlib level 6 sizes (close to gzip over the wire).
    """
    site = Path(site).resolve()
    sizes: dict[Path, tuple[int, int]] = {}

    def size(p: Path) -> tuple[int, int]:
        if p not in sizes:
            data = p.read_bytes()
            sizes[p] = (len(data), len(zlib.compress(data, 6)))
        return sizes[p]

    weights = []
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if page.name == "404.html" or not _GENERATOR.search(html):
            continue
        parser = _AssetRefs()
        parser.feed(html)
        total, gz = size(page)
        w = PageWeight(page.relative_to(site).as_posix(), total, gz)
        queue, seen = [(page, u) for u in parser.urls], set()
        while queue:
            base, url = queue.pop(0)
            target = _resolve(site, base, url)
            if target is None:
                if urlsplit(url).scheme not in ("data", ""):
                    w.external.append(url)
                continue
            target = target.resolve()
            if target in seen:
                continue
            seen.add(target)
            if not target.is_file():
                w.missing.append(url)
                continue
            b, g = size(target)
            w.bytes, w.gzip_bytes = w.bytes + b, w.gzip_bytes + g
            w.assets.append(target.relative_to(site).as_posix() if site in target.parents else str(target))
            if target.suffix == ".css":
                queue.extend((target, u) for u in _CSS_URL.findall(target.read_text(encoding="utf-8")))
        weights.append(w)
    return weights


def search_index_sizes(site: Path) -> dict[str, int]:
    """Bytes of each language's search index (``search/`` for the default language, ``<lang>/search/``)."""
    out = {}
    for i, lang in enumerate(LANGUAGES):
        p = Path(site) / ("" if i == 0 else lang) / "search" / "search_index.json"
        out[lang] = p.stat().st_size if p.is_file() else 0
    return out


def bench_weight(site: Path) -> list[Figure]:
    """Page weight figures of a built site (one measurement: the files do not change between runs)."""
    weights = page_weights(site)
    if not weights:
        raise BenchError(f"{site}: no HTML pages to weigh")
    biggest = max(weights, key=lambda w: w.bytes)
    missing = sorted({m for w in weights for m in w.missing})
    external = sorted({e for w in weights for e in w.external})
    notebooks = [w.bytes for w in weights if "/notebooks/" in f"/{w.page}"]
    written = [w.bytes for w in weights if "/notebooks/" not in f"/{w.page}"]
    notebook_html = {w.page: (Path(site) / w.page).stat().st_size for w in weights if "/notebooks/" in f"/{w.page}"}
    # "Transferred" is what crosses the network: static hosts (GitHub Pages, nginx/Caddy with the
    # snippets in docs/*/deploy.md) send HTML, CSS and JS gzip-compressed, so the target applies to
    # the gzip size; the uncompressed size is reported beside it.
    biggest_gz = max(weights, key=lambda w: w.gzip_bytes)
    figures = [Figure("page weight, median page (transferred, gzip)", "KB",
                      [statistics.median(w.gzip_bytes for w in weights) / 1000], ("<", 300),
                      f"{len(weights)} pages; zlib level 6"),
               Figure("page weight, largest page (transferred, gzip)", "KB", [biggest_gz.gzip_bytes / 1000],
                      note=biggest_gz.page),
               Figure("page weight, median page (uncompressed)", "KB",
                      [statistics.median(w.bytes for w in weights) / 1000], note="as stored on disk"),
               Figure("page weight, largest page (uncompressed)", "KB", [biggest.bytes / 1000], note=biggest.page)]
    figures += [Figure(f"page weight, median {kind} page", "KB", [statistics.median(sizes) / 1000],
                       note=f"{len(sizes)} pages")
                for kind, sizes in (("chapter", written), ("notebook", notebooks)) if sizes]
    if notebook_html:  # a chapter's notebook view: the page itself, its stylesheets shared and cached
        largest = max(notebook_html, key=notebook_html.get)
        figures.append(Figure("notebook page, largest HTML (uncompressed)", "KB", [notebook_html[largest] / 1000],
                              ("<", 300), largest))
    figures += [Figure("referenced assets missing or external", "", [len(missing) + len(external)], ("==", 0),
                       ", ".join((missing + external)[:3]))]
    figures += [Figure(f"search index, {lang}", "KB", [b / 1000]) for lang, b in search_index_sizes(site).items()]
    return figures
