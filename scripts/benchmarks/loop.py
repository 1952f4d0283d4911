"""The ``loop`` section: how long a contributor waits, from a save to the page that shows it.

All of it runs ``make serve``'s own command: ``serve_script`` takes the recipe from ``make -n serve``
in the copy (so a change of the Makefile's serve target is measured as soon as it lands) and only
moves its address to a free port; the variables the Makefile exports come from ``make_env`` (both in
``benchmarks.serving``, with the ``Server`` this section and ``benchmarks.fresh`` share).

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

import subprocess
import time
import uuid
from pathlib import Path

from pytorch_notes.pages import EMBED_RE, find_embeds, language_pages, prose_lines
from pytorch_notes.settings import LANGUAGES

from benchmarks.figures import Figure, ratio
from benchmarks.fresh import bench_fresh_serve, bench_fresh_test
from benchmarks.repo import (
    BenchError,
    PartialResults,
    bench_env,
    copy_repo,
    mkdocs_build,
    read_config,
    write_child_config,
)
from benchmarks.serving import Server, fetch, poll_until

PAGE = "tensors.md"  # under docs/<first language>/
EXAMPLE = "tensors/create.py"  # under examples/
EDIT_TIMEOUT_S = 120.0


# ---------------------------------------------------------------- pure helpers


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
