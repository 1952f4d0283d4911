"""The live-reload server of ``make serve``: saves seen with inotify, one rebuild per save, and jieba's
dictionary loaded while the server is idle (``on_serve``). Rebuilds themselves: ``incremental``."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from pytorch_notes.site import upstream
from pytorch_notes.site.common import log
from pytorch_notes.site.searchwords import load_user_dictionary


class _ChangesOnly:
    """A watchdog handler that calls ``changed`` once per saved file: inotify reports a file being opened
    and closed unwritten (the build itself reads every page), and a write both as "modified" (per chunk)
    and as "closed" (when complete): only the last counts, else one save would rebuild twice. Editors that
    save by renaming give "created" or "moved". Not sources: Python's bytecode caches and hidden files (the
    capture lock, an atomic write's temporary file)."""

    IGNORED = frozenset({"opened", "closed_no_write", "modified"})

    def __init__(self, changed) -> None:
        self.changed = changed

    def dispatch(self, event) -> None:
        path = getattr(event, "dest_path", "") or event.src_path  # a rename counts where it lands
        if (event.is_directory or event.event_type in self.IGNORED or "__pycache__" in path
                or os.path.basename(path).startswith(".")):
            return
        log.debug(f"live reload: {event.event_type} {path}")
        self.changed()


class Watcher:
    """What ``make serve`` watches besides MkDocs: ``start`` (``on_serve``) watches the pages and ``paths``.

    MkDocs' server polls its watched paths every 0.5 s (``LiveReloadServer``'s ``polling_interval``, which
    ``mkdocs serve`` does not expose), which delays every reload. On Linux the pages and ``paths`` are
    watched with watchdog's inotify observer instead: MkDocs' polling of the pages is dropped
    (``server.unwatch``), and a save is handed to MkDocs' own rebuild as an event of the one path MkDocs
    still polls, its configuration file (``upstream.live_reload_trigger``: MkDocs' server has no public way
    to ask for a rebuild). Elsewhere, or when inotify cannot watch (limits, file systems), ``paths`` are
    polled by MkDocs (``server.watch``).
    """

    def __init__(self) -> None:
        self.observer = None  # the inotify observer, once started

    def start(self, server, config, paths: list[Path]):
        """Watch ``config``'s pages and ``paths`` (folders or files) for ``server``; returns ``server``."""
        from watchdog.observers import Observer  # noqa: PLC0415 - only under make serve

        extra = [os.path.abspath(p) for p in paths if p.exists()]
        if self.observer is not None or Observer.__name__ != "InotifyObserver" or not config.config_file_path:
            return self._poll(server, extra)
        handler = _ChangesOnly(upstream.live_reload_trigger(server, os.path.abspath(config.config_file_path)))
        observer = Observer()
        try:
            for path in [os.path.abspath(config.docs_dir), *extra]:
                observer.schedule(handler, path, recursive=os.path.isdir(path))
        except OSError as exc:  # inotify limits, unsupported file system
            log.info(f"live reload keeps polling ({exc})")
            return self._poll(server, extra)
        server.unwatch(config.docs_dir)
        observer.start()
        self.observer = observer
        return server

    @staticmethod
    def _poll(server, paths: list[str]):
        for path in paths:
            server.watch(path)
        return server


def load_segmenter_in_background() -> threading.Thread:
    """Under ``make serve``, load jieba's dictionary and the course's terms in a thread once the site is
    served (``on_serve``; ``searchwords.load_user_dictionary``): the first build takes every page's search
    entries from the build cache, so jieba is first needed by the first rebuild after a save, which would
    wait for its dictionary. A rebuild that comes sooner waits on jieba's own lock. Returns the thread."""
    thread = threading.Thread(target=load_user_dictionary, name="jieba-dictionary", daemon=True)
    thread.start()
    return thread
