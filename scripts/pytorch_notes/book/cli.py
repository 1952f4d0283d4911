"""``make pdf``: print the book of each language from a built site::

    python scripts/pdf.py [--site site] [--lang zh] [--only autograd.md,graph.md] [--out DIR]

writes ``artifacts/pdf/pytorch-notes-<lang>.pdf`` (``site.book.pdf_path``; ``--out`` another folder), which
the next build of the site carries and links from the home page (``make pdf`` builds again for that). With
env ``SITE_URL`` set (the published site's address, as for ``make build``), links to what the book leaves
out (notebook pages, downloads, the computation times) point there; without it they become plain text.
Exits 0 when every PDF was written within ``printer.MAX_BYTES``, 1 when one is larger (it is still
written, and named), 2 when it cannot print: no Chromium, a page missing from the site.
"""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
import sys
from pathlib import Path

from pytorch_notes.book.assemble import BookError, book_chapters
from pytorch_notes.book.printer import MAX_BYTES, Printed, print_book
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.settings import LANGUAGES, REPO_ROOT
from pytorch_notes.site.book import pdf_path


def built_line(lang: str, root: Path = REPO_ROOT) -> str:
    """The cover's line on when and from what the book was made: today's date (UTC) and the checkout's
    commit (``git rev-parse --short HEAD``; ``unknown`` outside a git checkout)."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                                text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    return STRINGS[lang]["book_built"].format(date=today, commit=commit)


def describe(lang: str, printed: Printed) -> str:
    """One line of the report: ``zh: 686 pages, 20.3 MB in 250 s -> artifacts/pdf/pytorch-notes-zh.pdf``."""
    where = os.path.relpath(printed.path, REPO_ROOT) if printed.path.is_relative_to(REPO_ROOT) else printed.path
    return (f"{lang}: {printed.pages} pages, {printed.bytes / 1e6:.1f} MB in {printed.seconds:.0f} s "
            f"-> {where}")


def main(argv: list[str] | None = None, chromium: str | None = None, install: str = "") -> int:
    """The command; ``chromium`` is the browser to drive (``scripts/pdf.py`` finds it as the browser tests
    do: ``benchmarks.chromium.find_chromium``), ``install`` how to get one when it is None."""
    ap = argparse.ArgumentParser(prog="python scripts/pdf.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=REPO_ROOT / "site", help="the built site (make build)")
    ap.add_argument("--lang", action="append", choices=LANGUAGES, help="a language (default: every one)")
    ap.add_argument("--only", default="", help="these pages only, e.g. autograd.md,graph.md")
    ap.add_argument("--out", type=Path, help="write the PDFs into this folder instead of artifacts/pdf/")
    args = ap.parse_args(argv)
    if chromium is None:
        print(f"pdf: no Chromium found (set CHROMIUM, or install it: {install})", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    only = [p.strip() for p in args.only.split(",") if p.strip()] or None
    too_large = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"], headless=True)
        try:
            for lang in args.lang or LANGUAGES:
                out = args.out / pdf_path(Path(), lang).name if args.out else pdf_path(REPO_ROOT, lang)
                chapters = book_chapters(lang, only=only)
                printed = print_book(browser, args.site, lang, chapters, out, built=built_line(lang),
                                     site_url=os.environ.get("SITE_URL", "").strip())
                print(describe(lang, printed), flush=True)
                if printed.bytes > MAX_BYTES:
                    too_large.append(f"{out} is {printed.bytes / 1e6:.1f} MB, over {MAX_BYTES / 1e6:.0f} MB")
        except BookError as exc:
            print(f"pdf: {exc}", file=sys.stderr)
            return 2
        finally:
            browser.close()
    for line in too_large:
        print(f"pdf: {line}", file=sys.stderr)
    return 1 if too_large else 0
