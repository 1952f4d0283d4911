"""``make serve`` answers first: the notebook views follow in the background.

mkdocs-jupyter converts a notebook page (nbconvert) when it renders it, and keeps the result in its render
cache. In a fresh clone nothing is cached, and the first build would convert every chapter notebook (one per
chapter and language, ~30 s of CPU) before ``mkdocs serve`` binds its port. Under ``mkdocs serve``, instead:

* the first build, and any build while conversions are still running, serves each notebook page whose
  cache entry is missing as a placeholder (``placeholder_markdown``: its title, a note that it is being
  prepared and reloads by itself, and its sections' headings with the anchors the chapter pages link to),
  and hands its conversion to a pool of one worker per core (``Later.defer``), started at once but at a
  lower priority (``prewarm.server_pool``, nice 10): the build keeps the CPU it needs, the conversions take
  what it leaves (on 2 cores, one core while the build runs), and the pool ends with the last of them;
* one progress line counts the conversions (``progress.Progress``);
* when the last is done, a file is written into a folder the live-reload server watches (``Later.watch``
  from ``on_serve``: ``LiveReloadServer.watch``, MkDocs' public API for plugins): the server rebuilds,
  the notebook pages that were placeholders are rendered again (``Later.redo``, added to the rebuild's
  plan by ``incremental.Serve.start_build``) from the entries now cached, and MkDocs' live-reload script
  reloads every open page.

A build that is not served (``make build``) waits for every conversion as before (``prewarm``): no
placeholder is ever written into a built site. ``tests/site/test_later.py`` runs MkDocs' own server.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path

from pytorch_notes.render.notebook import chapter_notebook_title
from pytorch_notes.render.strings import ui
from pytorch_notes.site import prewarm
from pytorch_notes.site.common import log
from pytorch_notes.site.progress import Progress
from pytorch_notes.site.urls import section_headings

NICE = 10  # the conversions' priority below the build's (``os.nice``)
SIGNAL_ATTEMPTS = 10  # the ready file is written again until a build starts (the server's watch may start late)
SIGNAL_WAIT_S = 2.0


def placeholder_markdown(chapter, lang: str) -> str:
    """The Markdown of ``chapter``'s notebook page in ``lang`` while its conversion runs: the notebook's
    title, a note, and each example's section heading with the anchor of the converted page
    (``urls.section_headings``), so that the chapter page's links to its sections resolve."""
    text = ui(lang)
    parts = [f"# {chapter_notebook_title(chapter.title, lang)}",
             f'!!! info "{text["nb_preparing_title"]}"\n\n    {text["nb_preparing_text"]}']
    parts += [f"## {heading} {{ #{anchor} }}" for heading, anchor in section_headings(chapter.examples).values()]
    return "\n\n".join(parts) + "\n"


class Later:
    """The conversions ``make serve`` runs after answering (module docstring), kept by the plugin for the
    whole server. ``make_pool()`` starts the pool of a batch, ``convert(job)`` converts one job of
    ``prewarm.missing`` in it (tests give a thread pool and a function of their own)."""

    def __init__(self, make_pool: Callable[[], Executor] | None = None, convert: Callable | None = None) -> None:
        self.make_pool = make_pool or (lambda: prewarm.server_pool(os.cpu_count() or 1, nice=NICE))
        self.convert = convert or prewarm.convert
        self.pool: Executor | None = None  # the batch's, until its last conversion ends
        self.futures: dict[str, tuple[str, Future]] = {}  # cache entry -> (notebook source, its conversion)
        self.placeholders: set[str] = set()  # notebook sources the last build served as placeholders
        self.folder: Path | None = None  # watched by the server (``watch``)
        self.progress: Progress | None = None
        self.first = True  # no build has chosen yet
        self.built = threading.Event()  # a build started since the ready file was last written
        self.lock = threading.Lock()
        self.signals = 0
        self.closed = False  # the server is stopping: nothing more is said or signalled

    def busy(self) -> bool:
        """Whether a conversion handed over is not done."""
        with self.lock:
            return any(not f.done() for _, f in self.futures.values())

    def wanted(self) -> bool:
        """Whether this build defers its missing conversions: the first build, or while others run."""
        return self.first or self.busy()

    def convert_missing(self, config, redone: list, warm, serving: bool) -> None:
        """``on_files`` of the outer build: the notebooks it redoes (``redone``) that are missing from
        mkdocs-jupyter's cache. Under ``mkdocs serve`` (``serving``), in its first build or while others
        convert, they are converted after the server answers and their pages are placeholders; otherwise
        beside the build (``warm``: ``prewarm.Prewarm``), each page waiting for its own."""
        plugin = config.plugins.get("mkdocs-jupyter")
        if serving and plugin is not None and prewarm.enabled() and self.wanted():
            self.defer(prewarm.missing(plugin, redone))
            self.served(self.pending())
        else:
            self.served(set())
            warm.start(config, redone)

    def redo(self) -> set[str]:
        """``on_config`` of a served build: the notebook sources the last build served as placeholders,
        which this one renders again (from their cache entries when they are ready)."""
        self.built.set()
        return set(self.placeholders)

    def defer(self, jobs: list[tuple]) -> None:
        """Convert ``jobs`` (``prewarm.missing``: source, cache entry, ...) not handed over yet, in the pool
        of the batch (started by the first)."""
        self.first = False
        new = [job for job in jobs if job[1] not in self.futures]
        if not new:
            return
        with self.lock:
            if self.pool is None:
                self.futures = {k: v for k, v in self.futures.items() if not v[1].done()}
                self.pool = self.make_pool()
                self.progress = Progress("notebook views", 0, start=(
                    f"serving the pages first; converting {len(new)} notebook views in the background "
                    f"(their pages say so meanwhile and reload when ready)"))
            self.progress.add(len(new))
            with prewarm.sigint_ignored():  # the workers it starts leave Ctrl-C to the server
                for job in new:
                    self.futures[job[1]] = (job[0], self.pool.submit(self.convert, job))
        for job in new:
            self.futures[job[1]][1].add_done_callback(self._done)

    def pending(self) -> set[str]:
        """The notebook sources whose conversion is handed over and not done: this build's placeholders."""
        with self.lock:
            return {source for source, f in self.futures.values() if not f.done()}

    def served(self, placeholders: set[str]) -> None:
        """The sources this build serves as placeholders (``on_files`` of a served build)."""
        self.placeholders = set(placeholders)

    def watch(self, server) -> None:
        """``on_serve``: a folder of its own that ``server`` watches; if the conversions are all done
        already, say so now."""
        if self.folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="pytorch-notes-ready-"))
            server.watch(str(self.folder))
        if self.placeholders and not self.busy():
            self._signal()

    def close(self) -> None:
        """``on_shutdown``: the conversions not started dropped, the pool stopped (its workers end and their
        semaphores are released: nothing for Python's resource tracker to report at exit), the progress
        line ended, the watched folder removed."""
        with self.lock:
            pool, self.pool, self.closed = self.pool, None, True
        if pool is not None:
            prewarm.stop_now(pool)
        if self.progress is not None:
            self.progress.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def _done(self, future: Future) -> None:
        """A conversion ended (in the pool's thread): count it; after the last, end the line and signal."""
        if future.cancelled() or self.closed:
            return
        if (error := future.exception()) is not None:
            log.warning(f"a notebook view failed to convert in the background ({error}); "
                        f"its page will convert it when it is built")
        with self.lock:
            progress = self.progress
            last = not any(not f.done() for _, f in self.futures.values())
            pool = self.pool if last else None  # taken once: one end of the batch, however callbacks interleave
            if last:
                self.pool = None
        if progress is not None:
            progress.step()
        if pool is not None:
            pool.shutdown(wait=False)  # the batch is done: its workers end (not waited for, in its own thread)
            progress.close(f"notebook views ready: {progress.done} converted in {progress.seconds():.0f} s; "
                           f"reloading their pages")
            if self.placeholders and self.folder is not None:
                self._signal()

    def _signal(self) -> None:
        """Write the ready file in the watched folder until a build starts (in a thread: the server's
        polling watch sees it within half a second; one written before the watch started is not seen)."""
        folder = self.folder

        def write() -> None:
            for _ in range(SIGNAL_ATTEMPTS):
                self.built.clear()
                self.signals += 1
                try:
                    (folder / "ready").write_text(str(self.signals), encoding="utf-8")
                except OSError:
                    return  # the server is shutting down
                if self.built.wait(SIGNAL_WAIT_S):
                    return

        threading.Thread(target=write, name="notebook-views-ready", daemon=True).start()
