"""The ``lighthouse`` section: how the heaviest pages do on a phone, and whether a chapter's code is in it once.

``bench_lighthouse(site, repeat)`` runs Lighthouse 12 (npm; not a Python package, so not installed by the
project: ``INSTALL`` says how) with its mobile preset and default simulated throttling on the home page and
the four heaviest chapters (``PAGES``) of both languages, served on 127.0.0.1 gzip-compressed as GitHub Pages
serves them, in the Chromium the browser tests drive (``benchmarks.chromium``). Targets (issue 44, item 11):
performance >= 85 (the median of ``repeat`` runs), accessibility, best practices and SEO 100. Simulated
throttling computes the phone's times from the trace, but a trace's CPU tasks are timed on this machine, so a
busy machine scores lower: read the scores with the ``benchmarkIndex`` in the figure's note.

``repeated_code(site)`` counts the highlighted code blocks that a chapter holds twice (an example's code
rendered once per device tab did; ``render/html.py`` now renders it once): target 0.

``python -m benchmarks.lighthouse [SITE] [--runs N] [--page attention/ ...]`` prints the scores of a built site.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
from collections import Counter
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from pytorch_notes.settings import LANGUAGES, REPO_ROOT

from benchmarks.chromium import INSTALL as CHROMIUM_INSTALL
from benchmarks.chromium import find_chromium
from benchmarks.figures import Figure
from benchmarks.repo import BenchError, PartialResults

PAGES = ["", "attention/", "distributed/", "images/", "performance/"]
CATEGORIES = {"performance": (">=", 85), "accessibility": ("==", 100), "best-practices": ("==", 100),
              "seo": ("==", 100)}  # the other three share one figure a page: the lowest of them
INSTALL = ("npm i --prefix ~/.cache/lighthouse lighthouse@12, then "
           "LIGHTHOUSE=~/.cache/lighthouse/node_modules/.bin/lighthouse make bench")
RUN_TIMEOUT_S = 300  # one Lighthouse run; ~35 s on 2 busy cores for the longest chapter
_COMPRESSED = (".html", ".css", ".js", ".json", ".svg", ".xml", ".txt")


def find_lighthouse() -> str | None:
    """The Lighthouse command: env ``LIGHTHOUSE`` (a path or a name on PATH), else ``lighthouse`` on PATH."""
    return shutil.which(os.environ.get("LIGHTHOUSE", "").strip() or "lighthouse")


class _Gzip(SimpleHTTPRequestHandler):
    """Static files, text ones gzip-compressed when the client accepts it (as GitHub Pages serves them:
    uncompressed, a chapter's 0.5 MB of HTML alone took Lighthouse's simulated 4G ~3 s)."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if ("gzip" not in self.headers.get("Accept-Encoding", "") or path.suffix not in _COMPRESSED
                or not path.is_file() or not self.path.split("?")[0].endswith((path.name, "/"))):
            return super().send_head()
        data = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        return _Bytes(data)

    def log_message(self, format, *args):  # noqa: A002 - http.server's signature
        pass


class _Bytes:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, *_):
        data, self.data = self.data, b""
        return data

    def close(self):
        pass


@contextlib.contextmanager
def served(site: Path):
    """The root URL (ending in ``/``) of ``site`` served on 127.0.0.1 with ``_Gzip`` while in the block."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Gzip, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def run_once(lighthouse: str, chromium: str, url: str, keep: Path | None = None) -> dict:
    """One Lighthouse run (mobile preset, simulated throttling) of ``url``: ``{category: score 0-100}`` plus
    ``tbt_ms``, ``lcp_s``, ``dom`` (elements) and ``benchmark`` (Lighthouse's benchmarkIndex of this machine).
    ``keep``: a file to copy the whole report to (JSON).

    Raises:
        BenchError: Lighthouse failed or wrote no report.
    """
    with tempfile.TemporaryDirectory(prefix="pn-lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        cmd = [lighthouse, url, "--form-factor=mobile", "--output=json", f"--output-path={out}", "--quiet",
               "--only-categories=" + ",".join(CATEGORIES), "--chrome-flags=--headless --no-sandbox"]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False,
                              env={**os.environ, "CHROME_PATH": chromium, "TMPDIR": tmp})
        if not out.is_file():
            raise BenchError(f"lighthouse {url}: exit {done.returncode}: {done.stderr.strip()[-500:]}")
        report = json.loads(out.read_text(encoding="utf-8"))
        if keep is not None:
            shutil.copyfile(out, keep)
    if report.get("runtimeError"):
        raise BenchError(f"lighthouse {url}: {report['runtimeError'].get('message')}")
    audits = report["audits"]
    found = {k: round(100 * (c["score"] or 0)) for k, c in report["categories"].items()}
    found.update(tbt_ms=audits["total-blocking-time"]["numericValue"],
                 lcp_s=audits["largest-contentful-paint"]["numericValue"] / 1000,
                 dom=audits["dom-size"].get("numericValue", 0),
                 benchmark=report.get("environment", {}).get("benchmarkIndex", 0))
    return found


def measure(site: Path, runs: int, pages: list[str] | None = None, log=print) -> dict[str, list[dict]]:
    """``{page path: [run_once results]}`` for ``pages`` (default ``PAGES``) of every language of ``site``.

    Raises:
        BenchError: Lighthouse or Chromium is missing, or a run failed.
    """
    lighthouse, chromium = find_lighthouse(), find_chromium()
    if lighthouse is None:
        raise BenchError(f"the lighthouse section needs Lighthouse 12 (npm): {INSTALL}")
    if chromium is None:
        raise BenchError(f"the lighthouse section needs Chromium: {CHROMIUM_INSTALL}")
    found: dict[str, list[dict]] = {}
    with served(site) as base:
        for lang in LANGUAGES:
            for rel in pages or PAGES:
                path = rel if lang == LANGUAGES[0] else f"{lang}/{rel}"
                for _ in range(runs):
                    found.setdefault(f"/{path}", []).append(run_once(lighthouse, chromium, base + path))
                log(summary(f"/{path}", found[f"/{path}"]))
    return found


def summary(path: str, runs: list[dict]) -> str:
    """One line: the medians of a page's runs, e.g. ``/attention/ performance 88 (86-90) ... TBT 310 ms``."""
    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    perf = [r["performance"] for r in runs]
    scores = " ".join(f"{k} {med[k]:.0f}" for k in CATEGORIES if k != "performance")
    return (f"{path} performance {med['performance']:.0f} ({min(perf)}-{max(perf)}) {scores}"
            f" | TBT {med['tbt_ms']:.0f} ms LCP {med['lcp_s']:.1f} s DOM {med['dom']:.0f}"
            f" | benchmarkIndex {med['benchmark']:.0f}")


# a code block as pymdownx.highlight writes it (an output is a <pre><code> without the <span>): its title and
# line numbers, then its code
_HIGHLIGHTED = re.compile(r'<div class="language-\w+ highlight">(.*?)<pre><span></span><code>(.*?)</code></pre>', re.S)
_TAG = re.compile(r"<[^>]+>")


def repeated_code(site: Path) -> tuple[int, list[str]]:
    """Highlighted code blocks of ``site``'s pages that repeat an earlier block of the same page (the same
    title, line numbers and code, the highlighter's tags apart: two examples' cells with the same code start
    at other lines or carry another title), and ``page: first line of code xN`` for each such block."""
    total, where = 0, []
    for page in sorted(site.rglob("index.html")):
        html = page.read_text(encoding="utf-8")
        blocks = Counter((_TAG.sub("", head), _TAG.sub("", code)) for head, code in _HIGHLIGHTED.findall(html))
        for (_, code), n in blocks.items():
            if n > 1 and code.strip():
                total += n - 1
                where.append(f"{page.parent.relative_to(site)}: {code.strip().splitlines()[0][:60]} x{n}")
    return total, where


def bench_lighthouse(site: Path, repeat: int) -> list[Figure]:
    """Lighthouse's scores of ``PAGES`` in both languages (median of ``repeat`` runs), and ``repeated_code``.

    Raises:
        PartialResults: Lighthouse or Chromium is missing, or a run failed; it holds the code count.
    """
    repeats, where = repeated_code(site)
    figures = [Figure("code blocks a page holds twice", "", [repeats], ("==", 0),
                      "; ".join(where[:3]) or "every page of the build")]
    try:
        found = measure(site, repeat, log=lambda line: print(f"bench: lighthouse {line}", flush=True))
    except BenchError as exc:
        raise PartialResults(str(exc), figures) from None
    for path, runs in found.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("tbt_ms", "dom", "benchmark")}
        figures.append(Figure(f"lighthouse performance {path}", "", [r["performance"] for r in runs],
                              CATEGORIES["performance"], f"mobile, simulated; TBT {med['tbt_ms']:.0f} ms, "
                              f"DOM {med['dom']:.0f}, benchmarkIndex {med['benchmark']:.0f}"))
        others = [k for k in CATEGORIES if k != "performance"]
        figures.append(Figure(f"lighthouse {', '.join(others)} {path}", "", [min(r[k] for k in others) for r in runs],
                              ("==", 100), "the lowest of the three"))
    return figures


def main(argv: list[str] | None = None) -> int:
    """``python -m benchmarks.lighthouse [SITE] [--runs N] [--page REL]...``: Lighthouse's mobile scores of a
    built site (default ``site/``), a line per page and language, and the code blocks a page holds twice."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lighthouse", description=main.__doc__)
    parser.add_argument("site", nargs="?", type=Path, default=REPO_ROOT / "site")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--page", action="append", help=f"a page relative to a language root (default {PAGES})")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        parser.error(f"{args.site} holds no built site (make build)")
    repeats, where = repeated_code(args.site)
    print(f"code blocks a page holds twice: {repeats}" + "".join(f"\n  {w}" for w in where[:10]))
    try:
        measure(args.site, args.runs, args.page)
    except BenchError as exc:
        print(exc)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
