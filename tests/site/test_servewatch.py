"""make serve's watch (site/servewatch.py): a save seen by inotify rebuilds once, through MkDocs' own
live-reload server, for the pages (whose polling is dropped) and for the extra paths (never polled)."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest
from mkdocs.livereload import LiveReloadServer
from pytorch_notes.site.servewatch import Watcher
from watchdog.observers import Observer

pytestmark = pytest.mark.skipif(Observer.__name__ != "InotifyObserver", reason="inotify (Linux) only")


def test_a_save_rebuilds_once_through_mkdocs_server(tmp_path):
    docs, examples = tmp_path / "docs", tmp_path / "examples"
    docs.mkdir()
    examples.mkdir()
    (docs / "index.md").write_text("# a\n")
    config_file = tmp_path / "mkdocs.yml"
    config_file.write_text("site_name: t\n")
    builds: list[float] = []
    built = threading.Event()

    def builder() -> None:
        builds.append(time.monotonic())
        built.set()

    server = LiveReloadServer(builder=builder, host="127.0.0.1", port=0, root=str(tmp_path))
    server.watch(str(docs))  # what mkdocs serve watches before on_serve
    server.watch(str(config_file))
    watcher = Watcher()
    watcher.start(server, SimpleNamespace(docs_dir=str(docs), config_file_path=str(config_file)), [examples])
    assert watcher.observer is not None
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        time.sleep(0.3)
        for target in (examples / "a.py", docs / "index.md"):
            built.clear()
            before = len(builds)
            target.write_text("# b\n")
            assert built.wait(5), f"no rebuild after saving {target.name}"
            time.sleep(1.2)  # longer than MkDocs' polling interval: a polled path would rebuild again
            assert len(builds) == before + 1, f"{len(builds) - before} rebuilds for one save of {target.name}"
    finally:
        server.shutdown()
        watcher.observer.stop()
        watcher.observer.join()
