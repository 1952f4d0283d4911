"""Fill mkdocs-jupyter's render cache on every core before a cold build needs it.

mkdocs-jupyter converts each notebook page with nbconvert when the page is rendered, one after the
other, and keeps the result in ``<cache_dir>/<key>.json``. A build with an empty cache (a fresh clone,
``make clean``) would convert every chapter notebook (one per chapter and language) there, on one core.
``Prewarm`` (from ``on_files`` of a full build, once the notebooks are written) finds those whose cache
entry is missing and converts them in a process pool beside the build with
mkdocs-jupyter's own function ``convert.nb2html``, the same arguments and the same cache key (``_compute_cache_key``),
writing the entry its page render would write (the body and mkdocs-jupyter's own headings of the
notebook); a notebook page's render waits for its entry and finds it. Nothing of nbconvert or
mkdocs-jupyter is patched: the site is the same with and without the pool (``PYTORCH_NOTES_PREWARM=0``
turns it off; ``tests/site/test_prewarm.py``). Where an entry lives is mkdocs-jupyter's private
``_compute_cache_key`` and ``_get_cache_path``, read through ``upstream`` (no public way to fill its cache;
``tests/site/test_prewarm.py`` fails if they change); the headings beside the body come from its public
``get_nb_toc``. Under ``make serve`` one worker is kept (``serve``), started with
mkdocs-jupyter imported, for the notebooks a rebuild redoes (an edited example's chapter, both languages):
it converts them on another core while the build does the rest. Before and after the server
answers, the notebooks of its first build are converted by a pool of ``later``'s (``server_pool``).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from pytorch_notes.atomic import write_atomic
from pytorch_notes.site import upstream
from pytorch_notes.site.mdcache import toc_tokens
from pytorch_notes.site.progress import Progress

MIN_MISSES = 4  # below this, starting a pool costs more than it saves
# the options of mkdocs-jupyter's configuration that its page render passes to nb2html (besides execute)
NB2HTML_OPTIONS = ("kernel_name", "theme", "allow_errors", "show_input", "no_input", "no_prompt",
                   "remove_tag_config", "highlight_extra_classes", "include_requirejs", "custom_mathjax_url")


def convert(job: tuple[str, str, dict, int]) -> str:
    """Worker: render one notebook as mkdocs-jupyter's page render does and store its cache entry."""
    from mkdocs_jupyter import convert as nbconvert  # noqa: PLC0415 - imported in the worker
    from mkdocs_jupyter.plugin import get_nb_toc  # noqa: PLC0415

    path, cache_path, options, toc_depth = job
    body = nbconvert.nb2html(path, **options)
    # its page render stores the tokens of these headings beside the body, and reads them back with get_toc
    toc, title = get_nb_toc(path, toc_depth)
    write_atomic(Path(cache_path), json.dumps({"content": body, "toc_tokens": toc_tokens(toc), "title": title}))
    return path


def enabled() -> bool:
    """Whether notebooks are converted ahead at all (``PYTORCH_NOTES_PREWARM=0`` turns it off)."""
    return os.environ.get("PYTORCH_NOTES_PREWARM", "1") != "0"


def server_pool(workers: int, nice: int = 0) -> ProcessPoolExecutor:
    """A pool for the conversions of ``make serve``: spawned, not forked (a forked worker would hold the
    server's socket, and outlive a killed server); each worker at ``nice`` (``os.nice``: ``later`` converts
    beside the first build, which keeps the CPU it needs), ignoring Ctrl-C, gone with the server (``_ready``)."""
    spawn = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=workers, mp_context=spawn, initializer=_ready, initargs=(nice,))


def stop_now(pool) -> None:
    """Stop ``pool`` at once (the server stops): what has not started is dropped, the workers still converting
    are terminated (``multiprocessing.active_children``: the server's only such children are the workers of
    its pools, which it stops too), and the pool is joined, its queues and semaphores released (nothing for
    Python's resource tracker to report at exit). Waiting for the conversions running took up to 10 s on
    2 busy cores, the workers being niced."""
    pool.shutdown(wait=False, cancel_futures=True)
    if isinstance(pool, ProcessPoolExecutor):
        for child in multiprocessing.active_children():
            child.terminate()
    pool.shutdown(wait=True)


@contextlib.contextmanager
def sigint_ignored():
    """Around a ``submit`` that may start a worker of ``server_pool`` (in the main thread): the worker starts
    with Ctrl-C ignored (an ignored signal stays ignored across ``exec``, and Python leaves it so), so that
    Ctrl-C in the terminal, sent to the whole process group, stops only the server, even while a worker is
    still importing the server's main module (before ``_ready`` runs: a ``KeyboardInterrupt`` traceback
    per worker otherwise)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _ready(nice: int = 0) -> None:
    """Worker of ``server_pool``: it leaves the server's Ctrl-C to the server, ends when the server is
    gone, however it ended, and imports the converter now."""
    if nice:
        os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def orphaned() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=orphaned, daemon=True).start()
    from mkdocs_jupyter import convert as _  # noqa: F401, PLC0415


def missing(plugin, sources: list[Path]) -> list[tuple[str, str, dict, int]]:
    """The conversion jobs of the notebooks in ``sources`` whose cache entry is missing."""
    config = plugin.config
    if not config["cache"] or config["execute"]:
        return []
    options = {"execute": False, **{k: config[k] for k in NB2HTML_OPTIONS}}
    jobs = []
    for nb in sources:
        cache_path = upstream.jupyter_cache_path(config, nb)
        if not cache_path.exists():
            jobs.append((str(nb), str(cache_path), options, config["toc_depth"]))
    return jobs


class Prewarm:
    """The conversions of one build, running beside it: ``start`` (``on_files`` of a full build, once the
    notebooks are written) submits the notebooks missing from mkdocs-jupyter's cache to a process pool
    and returns; ``wait`` (``on_page_markdown`` of a notebook page, just before mkdocs-jupyter renders it)
    blocks until that notebook's entry is written; ``finish`` (the end of the build) waits for the rest.

    The notebook pages are rendered after the Markdown pages (their files come last), so the pool
    converts while the build does the Markdown pages; waiting for the whole pool at ``start`` would leave
    a core idle."""

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.kept = False  # make serve: the pool outlives the build (``serve``)
        self.pending: dict[str, Future] = {}
        self.progress: Progress | None = None  # a cold build's conversions, on one line

    def serve(self) -> None:
        """``make serve`` (``on_serve``): keep one worker, started now."""
        if self.pool is None and enabled():
            self.pool, self.kept = server_pool(1), True
            with sigint_ignored():
                self.pool.submit(int)  # the worker starts now

    def close(self) -> None:
        """``on_shutdown``: stop the server's worker, dropping what it has not started; it ends (its
        semaphores released, so that Python's resource tracker has nothing to report at exit)."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool, self.pending, self.kept = None, {}, False

    def start(self, config, sources: list[Path]) -> int:
        """Submit the notebooks of ``sources`` missing from the cache, in the order of ``sources`` (the order
        the build renders their pages in); returns how many."""
        plugin = config.plugins.get("mkdocs-jupyter")
        if plugin is None or not enabled():
            return 0
        jobs = missing(plugin, sources)
        workers = min(os.cpu_count() or 1, len(jobs))
        if not self.kept and (len(jobs) < MIN_MISSES or workers < 2):
            return 0
        if not self.kept:
            self.pool = ProcessPoolExecutor(max_workers=workers)
            self.progress = Progress("notebooks", len(jobs), start=(
                f"rendering {len(jobs)} notebooks for mkdocs-jupyter's cache on {workers} cores"))
        self.pending = {job[0]: self.pool.submit(convert, job) for job in jobs}
        if self.progress is not None:
            for future in self.pending.values():
                future.add_done_callback(lambda _, progress=self.progress: progress.step())
        return len(jobs)

    def wait(self, path: str | None) -> None:
        """Block until the notebook at ``path`` is converted (if it was submitted)."""
        future = self.pending.pop(str(path), None) if path else None
        if future is not None:
            future.result()

    def finish(self, cancel: bool = False) -> None:
        """Wait for every conversion (or drop those not started: ``cancel``, a failed build) and stop; the
        worker of ``serve`` stays."""
        if self.pool is None:
            return
        if self.kept:  # make serve: the worker stays for the next rebuild
            pending, self.pending = self.pending, {}
            for future in pending.values():
                _ = future.cancel() if cancel else future.result()
            return
        self.pool.shutdown(wait=True, cancel_futures=cancel)
        progress, self.progress = self.progress, None
        if not cancel:
            for future in self.pending.values():
                future.result()
        if progress is not None:
            progress.close("" if cancel else f"rendered the notebooks for mkdocs-jupyter's cache in "
                                              f"{progress.seconds():.1f} s")
        self.pool, self.pending, self.kept = None, {}, False
