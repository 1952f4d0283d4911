"""The live-reload server of ``make serve``: files watched with inotify, one rebuild per save, and jieba's
dictionary loaded while the server is idle (``on_serve``). Rebuilds themselves: ``incremental``."""

from __future__ import annotations

import os
import threading

from pytorch_notes.site.common import log


class _ChangesOnly:
    """Pass a watchdog handler one event per saved file: inotify reports a file being opened and closed
    unwritten (the build itself reads every page), and a write both as "modified" (per chunk) and as
    "closed" (when complete): only the last counts, or one save rebuilt twice. Editors that save by
    renaming give "created" or "moved". Not sources: Python's bytecode caches under ``scripts/`` and hidden
    files (the capture lock, an atomic write's temporary file)."""

    IGNORED = frozenset({"opened", "closed_no_write", "modified"})

    def __init__(self, inner) -> None:
        self.inner = inner

    def dispatch(self, event) -> None:
        path = getattr(event, "dest_path", "") or event.src_path  # a rename counts where it lands
        if event.event_type in self.IGNORED or "__pycache__" in path or os.path.basename(path).startswith("."):
            return  # hidden files (capture lock, atomic writes' temporaries)
        log.debug(f"live reload: {event.event_type} {path}")
        self.inner.dispatch(event)


def faster_watcher(server):
    """On Linux, swap the live-reload server's polling observer (MkDocs polls every 0.5 s) for watchdog's
    inotify one, moving the watches scheduled so far; later ``server.watch`` calls use it too. Keeps
    the polling observer elsewhere, or if inotify cannot watch (limits, unsupported file system)."""
    from watchdog.observers import Observer  # noqa: PLC0415 - only under make serve

    old = server.observer
    handlers = getattr(old, "_handlers", None)
    if handlers is None or old.is_alive() or Observer.__name__ != "InotifyObserver":
        return server  # other platforms' observers report no "closed" event: keep MkDocs' polling
    class ChangesObserver(Observer):  # every handler scheduled on it, now or later, sees changes only
        def schedule(self, event_handler, path, recursive=False, **kwargs):
            return super().schedule(_ChangesOnly(event_handler), path, recursive=recursive, **kwargs)

    new = ChangesObserver()
    try:
        refs = {}
        for watch, hs in list(handlers.items()):
            for h in hs:
                refs[watch.path] = new.schedule(h, watch.path, recursive=watch.is_recursive)
    except OSError as exc:  # inotify limits, unsupported file system
        log.info(f"live reload keeps polling ({exc})")
        return server
    server.observer = new
    server._watch_refs = refs  # MkDocs unwatches through these
    server.build_delay = 0.03  # MkDocs waits 0.1 s for more changes; "closed" already means a write is complete
    return server


def load_segmenter_in_background() -> threading.Thread | None:
    """Under ``make serve``, load jieba's dictionary in a thread once the site is served (``on_serve``).

    The first build takes every page's search entries from the build cache, so jieba is first needed by
    the first rebuild after a save, which then waited for its dictionary: 2.0 s instead of ~0.9 s
    (2026-11-23). The server is idle meanwhile; a rebuild that comes sooner waits on jieba's own lock.
    Returns the thread, or None without jieba.
    """
    try:
        import jieba  # noqa: PLC0415 - Material's optional Chinese segmenter
    except ImportError:
        return None
    thread = threading.Thread(target=jieba.initialize, name="jieba-dictionary", daemon=True)
    thread.start()
    return thread
