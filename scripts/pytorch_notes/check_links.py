"""``make check-links``: check the external (http/https) links of every page.

Internal links are checked by the build itself (``validation:`` in mkdocs.yml, so
``make build`` fails on a broken one). External sites come and go, and this machine may have
no network, so this check is separate and never blocks the build::

    python scripts/check_links.py [--timeout S] [--jobs N] [PAGE ...]

Each unique URL is requested once (HEAD, then GET if the server refuses HEAD). Prints
``page:line: URL -> status`` for each broken link and exits 1 if there is one, 0 otherwise.
Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
import urllib.error
import urllib.request
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.pages import language_pages, prose_lines
from pytorch_notes.settings import DOCS_DIR, LANGUAGES

# Markdown links/images `](url)`, autolinks `<url>`, and bare URLs; stops at whitespace, quotes, brackets.
URL_RE = re.compile(r"""https?://[^\s<>()"'`\]]+""")
USER_AGENT = "pytorch-notes-link-check/1 (+https://github.com/pytorch-notes/pytorch-notes)"


@dataclass(frozen=True)
class Link:
    """An external link: the page (path shown in messages), its 1-based line, and the URL."""

    page: str
    line: int
    url: str


def find_links(markdown: str, page: str) -> list[Link]:
    """External links of a page, outside fenced code blocks (code shows URLs, it does not link)."""
    links = []
    for lineno, line in prose_lines(markdown):
        for url in URL_RE.findall(line):
            links.append(Link(page, lineno, url.rstrip(".,;:，。；：")))
    return links


def check_url(url: str, timeout: float = 10.0) -> str | None:
    """None if ``url`` answers with a status below 400, else a short reason ("404", "timed out", ...)."""
    last = None
    for method in ("HEAD", "GET"):
        req = urllib.request.Request(url, method=method, headers={"User-Agent": USER_AGENT})
        try:
            with urllib.request.urlopen(req, timeout=timeout):
                return None
        except urllib.error.HTTPError as exc:
            last = f"HTTP {exc.code}"
            if exc.code not in (403, 405, 501):  # some servers refuse HEAD; retry with GET
                return last
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            return str(getattr(exc, "reason", exc))
    return last


def check_links(links: list[Link], timeout: float = 10.0, jobs: int = 8) -> list[tuple[Link, str]]:
    """Check each unique URL once; return (link, reason) for every link to a broken URL."""
    by_url: dict[str, list[Link]] = defaultdict(list)
    for link in links:
        by_url[link.url].append(link)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        reasons = dict(zip(by_url, pool.map(lambda u: check_url(u, timeout), by_url), strict=True))
    return [(link, reason) for url, reason in reasons.items() if reason for link in by_url[url]]


def main(argv: list[str] | None = None, docs_dir: Path = DOCS_DIR) -> int:
    ap = argparse.ArgumentParser(prog="make check-links", description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="*", type=Path, help="Markdown files (default: every page in every language)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per request (default 10)")
    ap.add_argument("--jobs", type=int, default=8, help="requests at once (default 8)")
    args = ap.parse_args(argv)
    files = args.pages or [p for lang in LANGUAGES for p in language_pages(lang, docs_dir).values()]
    links = []
    for f in files:
        shown = f.relative_to(Path(docs_dir).parent) if f.is_relative_to(Path(docs_dir).parent) else f
        links += find_links(f.read_text(encoding="utf-8"), shown.as_posix())
    broken = check_links(links, args.timeout, args.jobs)
    for link, reason in broken:
        print(f"{link.page}:{link.line}: {link.url} -> {reason}")
    print(f"check-links: {len({x.url for x in links})} external URL(s) in {len(files)} page(s), "
          f"{len({lk.url for lk, _ in broken})} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
