"""make serve's watch (site/servewatch.py): a save seen by inotify rebuilds once, through MkDocs' own
live-reload server, for the pages (whose polling is dropped) and for the extra paths (never polled)."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from mkdocs.livereload import LiveReloadServer
from pytorch_notes.site.servewatch import Watcher
from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import ObservedWatch

pytestmark = pytest.mark.skipif(Observer.__name__ != "InotifyObserver", reason="inotify (Linux) only")


class _Calls(FileSystemEventHandler):
    """A watchdog handler that calls ``seen(event)`` for every event of the watch it is added to."""

    def __init__(self, seen) -> None:
        self.seen = seen

    def on_any_event(self, event) -> None:
        self.seen(event)


def test_a_save_rebuilds_once_through_mkdocs_server(tmp_path):
    """Timed by events, not sleeps: after a save's rebuild, a hidden file written next to it (which the
    watch ignores) comes through inotify after every event of the save, so the save has been handed over
    in full; MkDocs' observer's queue, joined, has then dispatched each hand-over as a rebuild request. A
    request dispatched after the rebuild began would be a second rebuild; a path MkDocs still polled would
    be one too, so its observer must watch nothing but the configuration file."""
    docs, examples = tmp_path / "docs", tmp_path / "examples"
    docs.mkdir()
    examples.mkdir()
    (docs / "index.md").write_text("# a\n")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text("site_name: t\n")
    order: list[str] = []  # "request" (a rebuild asked of MkDocs) and "build", in the order they happen
    built = threading.Event()

    def builder() -> None:
        order.append("build")
        built.set()

    server = LiveReloadServer(builder=builder, host="127.0.0.1", port=0, root=str(tmp_path))
    server.watch(str(docs))  # what mkdocs serve watches before on_serve
    server.watch(str(config_file))
    watcher = Watcher()
    watcher.start(server, SimpleNamespace(docs_dir=str(docs), config_file_path=str(config_file)), [examples])
    assert watcher.observer is not None
    polled = [emitter.watch for emitter in server.observer.emitters]
    assert polled == [ObservedWatch(str(config_file), recursive=True)], "MkDocs still polls the pages or examples"
    for watch in polled:
        server.observer.add_handler_for_watch(_Calls(lambda e: e.is_directory or order.append("request")), watch)
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        for n, target in enumerate((examples / "a.py", docs / "index.md")):
            built.clear()
            before = len(order)
            target.write_text("# b\n")
            assert built.wait(10), f"no rebuild after saving {target.name}"
            sentinel, through = target.parent / f".through-{n}", threading.Event()
            flush = _Calls(lambda e, s=str(sentinel), t=through: s in (e.src_path, e.dest_path) and t.set())
            watcher.observer.schedule(flush, str(target.parent), recursive=True)  # the save's watch, after it
            sentinel.write_text("")
            assert through.wait(10), "inotify did not report the hidden file"
            server.observer.event_queue.join()  # every hand-over dispatched to MkDocs
            after = order[before:]
            assert "request" in after and after.count("build") == 1, f"{target.name}: {after}"
            assert "request" not in after[after.index("build"):], \
                f"{target.name}: a rebuild was asked for during the rebuild, a second one follows: {after}"
    finally:
        server.shutdown()
        watcher.observer.stop()
        watcher.observer.join()
