"""Fill mkdocs-jupyter's render cache on every core before a cold build needs it.

mkdocs-jupyter converts each notebook page with nbconvert when the page is rendered, one after the
other, and keeps the result in ``.cache/mkdocs-jupyter/<key>.json``. With two notebooks per example
(one per language) a build with an empty cache (a fresh clone, ``make clean``) spent most of its time
there, on one core. ``fill_cache`` (``on_pre_build``) finds the notebooks whose cache entry is missing
and converts them in a process pool with mkdocs-jupyter's own functions, the same arguments and the
same cache key (``_compute_cache_key``), writing the entry as its page render would, in the slim
form the build keeps entries in (``notebook_css``); the build then finds every entry
present. The site is unchanged: a cold build with this and one with ``PYTORCH_NOTES_PREWARM=0``
(which turns it off) were byte-identical (``diff -r``), and ``tests/test_prewarm.py`` checks that a
worker stores what mkdocs-jupyter's own render gives.
"""

from __future__ import annotations

import json
import os
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


def _convert(job: tuple[str, str, dict, int]) -> str:
    """Worker: render one notebook as mkdocs-jupyter's ``new_render`` does and store its cache entry."""
    from mkdocs_jupyter import convert  # noqa: PLC0415 - imported in the worker
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens  # noqa: PLC0415

    from pytorch_notes.site.notebook_css import store_lifted_stylesheets  # noqa: PLC0415

    path, cache_path, options, toc_depth = job
    body = store_lifted_stylesheets(convert.nb2html(path, **options))  # the slim form, as the build keeps it
    toc_tokens, title = _get_nb_toc_tokens(path, toc_depth)
    target = Path(cache_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"content": body, "toc_tokens": toc_tokens, "title": title}), encoding="utf-8")
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
    Returns how many were converted (0 when none, or too few to be worth a pool)."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or os.environ.get("PYTORCH_NOTES_PREWARM", "1") == "0":
        return 0
    jobs = missing(plugin)
    workers = min(os.cpu_count() or 1, len(jobs))
    if len(jobs) < MIN_MISSES or workers < 2:
        return 0
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=_share_compiled_templates) as pool:
        for _ in pool.map(_convert, jobs, chunksize=4):
            pass
    log.info(f"rendered {len(jobs)} notebooks for mkdocs-jupyter's cache on {workers} cores "
             f"in {time.perf_counter() - t0:.1f} s")
    return len(jobs)
