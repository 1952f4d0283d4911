"""Fill mkdocs-jupyter's render cache on every core before a cold build needs it.

mkdocs-jupyter converts each notebook page with nbconvert when the page is rendered, one after the
other, and keeps the result in ``.cache/mkdocs-jupyter/<key>.json``. With two notebooks per example
(one per language) a build with an empty cache (a fresh clone, ``make clean``) spent most of its time
there, on one core. ``fill_cache`` (``on_pre_build``) finds the notebooks whose cache entry is missing
and converts them in a process pool with mkdocs-jupyter's own functions, the same arguments and the
same cache key (``_compute_cache_key``), writing the entry as its page render would, in the slim
form the build keeps entries in (``notebook_css``); the build then finds every entry
present. A worker reads a notebook's headings from its Markdown cells (``toc_tokens``) and validates
it once, not after each nbconvert preprocessor (``_validate_once``): 11.3 s instead of 13.3-14.6 s
for the 324 notebooks (2 cores, 2026-11-23). The site is unchanged: a cold build with this and one
with ``PYTORCH_NOTES_PREWARM=0`` (which turns it off) were byte-identical (``diff -r``), and
``tests/test_prewarm.py`` checks that a worker stores what mkdocs-jupyter's own render gives.
"""

from __future__ import annotations

import json
import os
import re
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from pytorch_notes.settings import DOCS_DIR, LANGUAGES
from pytorch_notes.site.common import log

MIN_MISSES = 8  # below this, starting a pool costs more than it saves
_NB2HTML_OPTIONS = ("kernel_name", "theme", "allow_errors", "show_input", "no_input", "no_prompt",
                    "remove_tag_config", "highlight_extra_classes", "include_requirejs", "custom_mathjax_url")


def _share_compiled_templates() -> None:
    """Worker initialiser: one in-memory Jinja bytecode cache for every nbconvert exporter of the process.

    mkdocs-jupyter makes a new ``HTMLExporter`` per notebook, and nbconvert a new Jinja environment per
    exporter, so every notebook compiled nbconvert's templates again: two thirds of a conversion
    (cProfile of 20 notebooks: 3.7 s of 5.4 s in ``jinja2.Environment.compile``). Jinja's bytecode
    cache is keyed by each template's name and source, so the rendered HTML is the same.
    """
    from jinja2 import BytecodeCache  # noqa: PLC0415 - worker side
    from nbconvert.exporters.templateexporter import TemplateExporter  # noqa: PLC0415

    class InMemory(BytecodeCache):
        def __init__(self) -> None:
            self.store: dict[str, bytes] = {}

        def load_bytecode(self, bucket) -> None:
            if (code := self.store.get(bucket.key)) is not None:
                bucket.bytecode_from_string(code)

        def dump_bytecode(self, bucket) -> None:
            self.store[bucket.key] = bucket.bytecode_to_string()

    shared = InMemory()
    create = TemplateExporter._create_environment

    def _create_environment(self):
        environment = create(self)
        environment.bytecode_cache = shared
        return environment

    TemplateExporter._create_environment = _create_environment


def toc_tokens(path: str, toc_depth: int, export=None) -> tuple[list, str | None]:
    """What mkdocs-jupyter's ``_get_nb_toc_tokens(path, toc_depth)`` returns (the table of contents and
    the first level-1 heading), without its Markdown export of the whole notebook.

    mkdocs-jupyter exports the notebook with a template that drops code cells (their outputs with them),
    removes code spans and fenced blocks, and reads the headings of what is left: for a notebook of
    Markdown and code cells only, that is the Markdown cells, one paragraph apart. That export took a
    fifth of a notebook's conversion in a cold build (~10 of ~60 ms, 2 cores); a notebook with any other
    cell (raw, unknown) still goes through it (``export``: mkdocs-jupyter's function by default).
    ``tests/test_prewarm.py`` compares both.
    """
    from mkdocs_jupyter import plugin  # noqa: PLC0415 - imported where notebooks are converted
    from mkdocs_jupyter.nbconvert2 import _strip_if_no_heading  # noqa: PLC0415

    cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    if any(c.get("cell_type") not in ("markdown", "code") for c in cells):
        return (export or plugin._get_nb_toc_tokens)(path, toc_depth)
    body = "\n\n".join(c["source"] if isinstance(c["source"], str) else "".join(c["source"])
                        for c in cells if c["cell_type"] == "markdown")
    body = re.sub(r"```.*?```", "", body, flags=re.DOTALL)  # the same three steps as mkdocs-jupyter's nb2md
    body = re.sub(r"`[^`\n]*`", "", body)
    body = re.sub(r"`[^`]*`", _strip_if_no_heading, body)
    tokens = plugin._get_markdown_toc(body, toc_depth)
    return tokens, next((t["name"] for t in tokens if t["level"] == 1), None)


def use_fast_toc() -> None:
    """Make mkdocs-jupyter's own page render (a notebook not in its cache: under ``make serve``, after an
    example's edit) read a notebook's headings with ``toc_tokens`` too (``on_config``; once per process)."""
    from mkdocs_jupyter import plugin  # noqa: PLC0415 - loaded with the plugins by now

    original = plugin._get_nb_toc_tokens
    if getattr(original, "_pytorch_notes_fast", False):
        return

    def _get_nb_toc_tokens(fpath, toc_depth):
        return toc_tokens(fpath, toc_depth, original)

    _get_nb_toc_tokens._pytorch_notes_fast = True  # type: ignore[attr-defined]
    plugin._get_nb_toc_tokens = _get_nb_toc_tokens


def _validate_once() -> None:
    """Worker initialiser: nbconvert validates the notebook after all its preprocessors, not after each
    (its ``Exporter.optimistic_validation``; the notebooks are the build's own, written valid)."""
    from mkdocs_jupyter import nbconvert2  # noqa: PLC0415 - worker side

    make_app = nbconvert2.get_nbconvert_app

    def get_nbconvert_app(*args, **kwargs):
        app = make_app(*args, **kwargs)
        app.config.Exporter.optimistic_validation = True
        return app

    nbconvert2.get_nbconvert_app = get_nbconvert_app


def _init_worker() -> None:
    _share_compiled_templates()
    _validate_once()


def _convert(job: tuple[str, str, dict, int]) -> str:
    """Worker: render one notebook as mkdocs-jupyter's ``new_render`` does and store its cache entry."""
    from mkdocs_jupyter import convert  # noqa: PLC0415 - imported in the worker

    from pytorch_notes.site.notebook_css import store_lifted_stylesheets  # noqa: PLC0415

    path, cache_path, options, toc_depth = job
    body = store_lifted_stylesheets(convert.nb2html(path, **options))  # the slim form, as the build keeps it
    tokens, title = toc_tokens(path, toc_depth)
    target = Path(cache_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"content": body, "toc_tokens": tokens, "title": title}), encoding="utf-8")
    os.replace(tmp, target)
    return path


def missing(plugin) -> list[tuple[str, str, dict, int]]:
    """The conversion jobs of the generated notebooks (both languages) whose cache entry is missing."""
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path  # noqa: PLC0415

    config = plugin.config
    if not config["cache"] or config["execute"]:
        return []
    options = {"execute": False, **{k: config[k] for k in _NB2HTML_OPTIONS}}
    jobs = []
    for lang in LANGUAGES:
        root = DOCS_DIR / lang / "notebooks"
        for nb in sorted(root.rglob("*.ipynb")) if root.is_dir() else []:
            cache_path = _get_cache_path(config["cache_dir"], _compute_cache_key(str(nb), config, False))
            if not cache_path.exists():
                jobs.append((str(nb), str(cache_path), options, config["toc_depth"]))
    return jobs


def fill_cache(config) -> int:
    """Convert the notebooks missing from mkdocs-jupyter's cache on all cores (see the module docstring).
    Returns how many were converted (0 when none, or too few to be worth a pool).

    The pool finishes before the build goes on. Converting beside the build, each notebook awaited when
    its page is rendered, was no faster: 22.8 s against 21.3 s for a cold build, the CPU time of the
    same work up from 33 to 38 s with three processes on two cores (2026-11-23)."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or os.environ.get("PYTORCH_NOTES_PREWARM", "1") == "0":
        return 0
    jobs = missing(plugin)
    workers = min(os.cpu_count() or 1, len(jobs))
    if len(jobs) < MIN_MISSES or workers < 2:
        return 0
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker) as pool:
        for _ in pool.map(_convert, jobs, chunksize=4):
            pass
    log.info(f"rendered {len(jobs)} notebooks for mkdocs-jupyter's cache on {workers} cores "
             f"in {time.perf_counter() - t0:.1f} s")
    return len(jobs)
