"""The ``loop`` section: how long a contributor waits, from a save to the page that shows it.

All of it runs ``make serve``'s own command: ``serve_script`` takes the recipe from ``make -n serve``
in the copy (so a change of the Makefile's serve target is measured as soon as it lands) and only
moves its address to a free port; the variables the Makefile exports come from ``make_env``.

* page edit: in a copy of the repository (warm ``.cache``), the server started and answering, append
  a unique marker sentence to ``docs/zh/tensors.md``, poll the served page every 20 ms until the marker
  is on it; the figure is the seconds from the save to the marker, over ``--edits`` edits (10; 5 with
  ``--quick``; target <= 1.0 s), and its ratio to a warm ``mkdocs build --strict`` of the same copy.
* example edit: append a bilingual comment pair carrying a new marker (``# zh: <marker>`` /
  ``# en: <marker>``, the form CONTRIBUTING documents; a comment changes no output, so no capture is
  needed and the stored record stays fresh) to the end of ``examples/tensors/create.py``, and poll until
  the marker is on every page that shows the example's source: of the pages embedding it in each
  language and their chapter notebook pages, those a first, untimed edit updates
  (``pages_updated``: a page that does not show it once the server has settled is reported in the
  note, not waited for: notebooks built from the stored record's source show no comment edit).
  The figure is the seconds from the save to the last of them (target <= 2.0 s).
  Between two edits the server is left to settle (``build_pending``).
* plain Material: the warm strict build of the same Markdown pages, ``::: example`` lines removed, with
  the theme (its template overrides in ``docs/overrides`` included, but for the two that read the plugin's
  UI strings, ``pn_strings``: the 404 page and the footer, Material's own there), i18n, search and the Markdown
  extensions but no hooks and no mkdocs-jupyter (``plain_overrides``): the floor for this stack. Its builds
  alternate with ours, and the ratio ours / plain is the median of the pairs' ratios (target <= 1.2: the
  glue costs at most a fifth of the floor), so that the machine's drift weighs on both alike.
* fresh clone (``benchmarks.fresh``): ``make serve`` in a ``git clone`` of HEAD until the home page answers
  (target <= 35 s) and until its notebook views are ready, then ``make build`` right after it against a warm
  one (target <= 1.5x); ``make test`` in another clone (target < 180 s), each creating its virtualenv.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from pytorch_notes.pages import EMBED_RE, find_embeds, language_pages, prose_lines
from pytorch_notes.settings import LANGUAGES

from benchmarks.figures import Figure, ratio
from benchmarks.repo import (
    BenchError,
    PartialResults,
    bench_env,
    copy_repo,
    mkdocs_build,
    read_config,
    write_child_config,
)

PAGE = "tensors.md"  # under docs/<first language>/
EXAMPLE = "tensors/create.py"  # under examples/
POLL_S = 0.02
EDIT_TIMEOUT_S = 120.0
_ADDR_RE = re.compile(r"\b(?:127\.0\.0\.1|localhost|0\.0\.0\.0):\d+\b")
_BUILD_START = ("Detected file changes",)
_BUILD_END = ("Reloading browsers", "An error happened during the rebuild")


# ---------------------------------------------------------------- pure helpers


def serve_script(dry_run: str, port: int) -> str:
    """The shell script of ``make -n serve`` output, with its address moved to ``127.0.0.1:<port>``.

    Raises:
        BenchError: the recipe names no ``host:port`` address (then the port cannot be chosen).
    """
    lines = [ln for ln in dry_run.splitlines() if ln.strip() and not ln.startswith(("make:", "make["))]
    script = "\n".join(lines)
    if not _ADDR_RE.search(script):
        raise BenchError(f"`make -n serve` names no host:port address to move to a free port:\n{script}")
    return _ADDR_RE.sub(f"127.0.0.1:{port}", script)


def build_pending(log: str) -> bool:
    """Whether the server log shows a rebuild that has started and not finished (``mkdocs serve``'s
    "Detected file changes" without its "Reloading browsers" or error line)."""
    starts = sum(log.count(s) for s in _BUILD_START)
    ends = sum(log.count(s) for s in _BUILD_END)
    return starts > ends


def poll_until(check, timeout: float, interval: float = POLL_S, clock=time.perf_counter,
               sleep=time.sleep) -> float | None:
    """Call ``check()`` every ``interval`` s until it is true; the seconds it took, or None after ``timeout``."""
    t0 = clock()
    while True:
        if check():
            return clock() - t0
        if clock() - t0 > timeout:
            return None
        sleep(interval)


def append_marker_sentence(markdown: str, marker: str) -> str:
    """``markdown`` with a paragraph holding ``marker`` appended."""
    return markdown.rstrip("\n") + f"\n\nBenchmark marker {marker}.\n"


def append_marker_comment(source: str, marker: str) -> str:
    """``source`` with a bilingual comment pair holding ``marker`` appended to its last cell."""
    return source.rstrip("\n") + f"\n# zh: {marker}\n# en: {marker}\n"


def strip_embeds(markdown: str) -> str:
    """``markdown`` without its ``::: example`` lines (those in code fences and HTML comments are kept)."""
    drop = {n for n, line in prose_lines(markdown) if EMBED_RE.match(line)}
    return "".join(ln for n, ln in enumerate(markdown.splitlines(keepends=True), start=1) if n not in drop)


def plain_overrides(cfg: dict) -> dict:
    """Top-level keys of a child config that builds ``cfg``'s pages as plain Material: no hooks, neither
    the site's plugin (``pytorch-notes``) nor mkdocs-jupyter, nothing extra watched; links to the (absent)
    notebook pages reported, not fatal."""
    ours = ("mkdocs-jupyter", "pytorch-notes")
    plugins = [p for p in cfg.get("plugins", []) if not (p in ours or (isinstance(p, dict) and set(p) & set(ours)))]
    quiet = {"not_found": "info", "anchors": "info", "unrecognized_links": "info"}
    return {"hooks": [], "plugins": plugins, "watch": [], "validation": {"links": quiet}}


def marker() -> str:
    """A new unique marker, e.g. ``benchloop3f2a9c1d``: one word to the highlighter and the search."""
    return "benchloop" + uuid.uuid4().hex[:8]


# ---------------------------------------------------------------- the server


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_make_env(env: dict) -> dict:
    """``env`` without the variables of an enclosing make (``make bench`` would hand down its ARGS)."""
    return {k: v for k, v in env.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}


def make_env(root: Path, env: dict) -> dict:
    """The environment make gives its recipes in ``root``: ``env`` plus the Makefile's exports."""
    out = subprocess.run(["make", "-s", "--no-print-directory", "--eval", "__bench_env: ; @env -0", "__bench_env"],
                         cwd=root, env=clean_make_env(env), capture_output=True, check=True).stdout.decode()
    return clean_make_env(dict(item.split("=", 1) for item in out.split("\0") if "=" in item))


def make_dry_run(root: Path, env: dict, target: str = "serve", set_up: bool = False, port: int | None = None) -> str:
    """``make -n <target>`` in ``root`` (``PORT=port``: make serve checks that port, not 8000, which another
    server may hold); without ``set_up``, the virtualenv is taken as installed."""
    cmd = ["make", "-n", "--no-print-directory"] + ([] if set_up else ["-o", ".venv/.installed-stamp"]) + [target]
    cmd += [f"PORT={port}"] if port else []
    return subprocess.run(cmd, cwd=root, env=clean_make_env(env), capture_output=True, text=True, check=True).stdout


def fetch(url: str) -> tuple[int, str]:
    """(HTTP status, body) of ``url``; (0, "") when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (OSError, ValueError):
        return 0, ""


class Server:
    """``make serve``'s command run in ``root`` on a free port, its output in ``log``; a context manager
    that stops the whole process group."""

    def __init__(self, root: Path, env: dict, log: Path, set_up: bool = False):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}/"
        self.script = serve_script(make_dry_run(root, env, "serve", set_up, self.port), self.port)
        self.log = log
        self._out = open(log, "w", encoding="utf-8")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(["sh", "-ec", self.script], cwd=root, env=make_env(root, env),
                                     stdout=self._out, stderr=subprocess.STDOUT, start_new_session=True)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def answers(self) -> bool:
        """Whether the home page answers 200; BenchError if the server has exited."""
        if self.proc.poll() is not None:
            raise BenchError(f"`{self.script}` exited {self.proc.returncode}:\n{self.log_text()[-3000:]}")
        return fetch(self.base)[0] == 200

    def wait_ready(self, timeout: float) -> float:
        """Seconds until the home page answers 200; BenchError if the server exits or ``timeout`` passes."""
        took = poll_until(self.answers, timeout, interval=0.1)
        if took is None:
            raise BenchError(f"the server did not answer within {timeout:.0f} s:\n{self.log_text()[-3000:]}")
        return took

    def wait_quiet(self, settle: float = 1.0, timeout: float = 120.0) -> None:
        """Wait until no rebuild is pending and the log has not grown for ``settle`` seconds."""
        last, since = -1, time.perf_counter()
        deadline = since + timeout
        while time.perf_counter() < deadline:
            text = self.log_text()
            if len(text) != last:
                last, since = len(text), time.perf_counter()
            elif time.perf_counter() - since >= settle and not build_pending(text):
                return
            time.sleep(0.1)
        raise BenchError(f"the server did not settle within {timeout:.0f} s:\n{self.log_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            for sig, wait in ((signal.SIGINT, 10), (signal.SIGTERM, 5), (signal.SIGKILL, 5)):
                try:
                    os.killpg(self.proc.pid, sig)
                    self.proc.wait(wait)
                    break
                except ProcessLookupError:
                    break
                except subprocess.TimeoutExpired:
                    continue
        self._out.close()


# ---------------------------------------------------------------- the edits


def lang_prefix(lang: str) -> str:
    """Where ``lang``'s pages live under the site root: ``""`` for the default language, else ``"<lang>/"``."""
    return "" if lang == LANGUAGES[0] else f"{lang}/"


def example_urls(root: Path, example: str) -> list[str]:
    """Paths (relative to the site root) of every page showing ``example``: the pages embedding it and
    their chapter notebook pages, in each language."""
    urls = []
    for lang in LANGUAGES:
        notebooks = []
        for rel, path in language_pages(lang, root / "docs").items():
            if any(e.rel == example for e in find_embeds(path.read_text(encoding="utf-8"), rel)):
                stem = rel[:-3]
                urls.append(lang_prefix(lang) + ("" if stem == "index" else stem + "/"))
                notebooks.append(f"{lang_prefix(lang)}notebooks/{stem.replace('/', '-')}/")
        urls += notebooks
    return urls


def timed_edit(server: Server, path: Path, edit, urls: list[str]) -> float:
    """Apply ``edit(text, marker)`` to ``path``; seconds from the save until every URL shows the marker."""
    server.wait_quiet()
    mark = marker()
    new = edit(path.read_text(encoding="utf-8"), mark)
    waiting = list(urls)

    def shown():
        waiting[:] = [u for u in waiting if mark not in fetch(server.base + u)[1]]
        return not waiting

    t0 = time.perf_counter()
    path.write_text(new, encoding="utf-8")
    took = poll_until(shown, EDIT_TIMEOUT_S)
    if took is None:
        raise BenchError(f"{EDIT_TIMEOUT_S:.0f} s after editing {path.name}, the change is not on "
                         f"{', '.join('/' + u for u in waiting)}:\n{server.log_text()[-3000:]}")
    return time.perf_counter() - t0


def pages_updated(server: Server, path: Path, edit, urls: list[str]) -> list[str]:
    """The URLs among ``urls`` that show an edit of ``path`` once the server has rebuilt and settled
    (a probe edit, not timed). BenchError if none does."""
    server.wait_quiet()
    mark = marker()
    path.write_text(edit(path.read_text(encoding="utf-8"), mark), encoding="utf-8")
    if poll_until(lambda: any(mark in fetch(server.base + u)[1] for u in urls), EDIT_TIMEOUT_S) is None:
        raise BenchError(f"{EDIT_TIMEOUT_S:.0f} s after editing {path.name}, no page shows the change "
                         f"({', '.join('/' + u for u in urls)}):\n{server.log_text()[-3000:]}")
    server.wait_quiet()
    return [u for u in urls if mark in fetch(server.base + u)[1]]


def plain_site(tmp: Path, env: dict):
    """A copy of the repository whose pages build as plain Material (``plain_overrides``, ``strip_embeds``),
    built once to warm it; returns a function giving the wall seconds of its next warm strict build."""
    root = copy_repo(tmp / "plain-repo")
    for template in (root / "docs" / "overrides").rglob("*.html"):  # those reading the plugin's UI strings
        if "pn_strings(" in template.read_text(encoding="utf-8"):  # fall back to Material's own
            template.unlink()
    for lang in LANGUAGES:
        for path in language_pages(lang, root / "docs").values():
            path.write_text(strip_embeds(path.read_text(encoding="utf-8")), encoding="utf-8")
    config = write_child_config(root, "mkdocs.bench-plain.yml", plain_overrides(read_config(root)))
    site = tmp / "plain-site"
    mkdocs_build(root, site, env, config)  # warm-up
    return lambda: mkdocs_build(root, site, env, config)


def bench_loop(tmp: Path, repeat: int, edits: int, fresh: bool = True, tests: bool = True,
               test_args: str = "") -> list[Figure]:
    """The loop figures (module docstring). ``edits`` per reload figure; ``fresh``: the fresh-clone
    ``make serve``; ``tests``: the fresh-clone ``make test``.

    Raises:
        PartialResults: a part failed; the figures of the others come with it.
    """
    from benchmarks.fresh import bench_fresh_serve, bench_fresh_test  # noqa: PLC0415 - fresh imports this module

    figures: list[Figure] = []
    failed: list[str] = []

    def attempt(what: str, step) -> None:
        try:
            step()
        except (BenchError, subprocess.SubprocessError, OSError) as exc:
            failed.append(f"{what}: {exc}")

    root = copy_repo(tmp / "loop-repo", cache=True)
    env, site = bench_env(tmp), tmp / "loop-site"
    mkdocs_build(root, site, env)  # warm-up: fills .cache and the generated notebooks
    plain: list = []
    attempt("plain Material", lambda: plain.append(plain_site(tmp, env)))
    ours, floor = [], []
    for _ in range(repeat):  # ours and plain Material alternated: the machine's drift weighs on both alike
        ours.append(mkdocs_build(root, site, env))
        if plain and len(floor) == len(ours) - 1:  # no plain build failed so far
            attempt("plain Material", lambda: floor.append(plain[0]()))
    warm = Figure("build, warm strict (loop copy)", "s", ours)
    figures.append(warm)
    if floor and len(floor) == len(ours):
        figures += [Figure("build, plain Material (same pages; no hooks, notebooks, examples)", "s", floor,
                           note="the floor for this stack (warm, strict), alternated with ours"),
                    Figure("warm build, ours / plain Material", "x", [o / f for o, f in zip(ours, floor, strict=True)],
                           ("<=", 1.2), "median of the alternated pairs (issue 28: at most 1.2x)")]
    attempt("reload", lambda: _reloads(tmp, root, env, edits, warm, figures))
    if fresh:
        attempt("fresh clone, make serve", lambda: figures.extend(bench_fresh_serve(tmp, repeat)))
    if tests:
        attempt("fresh clone, make test", lambda: figures.append(bench_fresh_test(tmp, test_args)))
    if failed:
        raise PartialResults("; ".join(failed), figures)
    return figures


def _reloads(tmp: Path, root: Path, env: dict, edits: int, warm: Figure, found: list[Figure]) -> None:
    """The page-edit and example-edit figures, appended to ``found`` as each is measured."""
    lang = LANGUAGES[0]
    with Server(root, env, tmp / "loop-serve.log") as server:
        server.wait_ready(600)
        page = [timed_edit(server, root / "docs" / lang / PAGE, append_marker_sentence,
                           [lang_prefix(lang) + PAGE[:-3] + "/"]) for _ in range(edits)]
        fig = Figure(f"reload after a page edit (docs/{lang}/{PAGE})", "s", page, ("<=", 1.0),
                     "save -> marker on the served page")
        found += [fig, ratio("page reload / warm full build", fig, warm, note="1.0 = a full rebuild")]
        path, candidates = root / "examples" / EXAMPLE, example_urls(root, EXAMPLE)
        urls = pages_updated(server, path, append_marker_comment, candidates)
        example = [timed_edit(server, path, append_marker_comment, urls) for _ in range(edits)]
        note = f"save -> a new comment on all {len(urls)} pages showing it"
        missing = [u for u in candidates if u not in urls]
        if missing:
            note += f"; never on {', '.join('/' + u for u in missing)}"
        fig = Figure(f"reload after an example edit (examples/{EXAMPLE})", "s", example, ("<=", 2.0), note)
        found += [fig, ratio("example reload / warm full build", fig, warm, note="1.0 = a full rebuild")]
