"""make serve answers first (site/later.py): the notebook views convert after MkDocs' own live-reload server
answers, their pages are placeholders meanwhile, and the server rebuilds them once the last is ready.
Timed by events, not sleeps: conversions wait for a gate the test opens, the server's builder sets an event."""

from __future__ import annotations

import io
import logging
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import markdown
from mkdocs.livereload import LiveReloadServer
from pytorch_notes.site import incremental
from pytorch_notes.site.later import Later, placeholder_markdown
from pytorch_notes.site.progress import Progress
from pytorch_notes.site.urls import section_headings

TIMEOUT_S = 30  # the server polls its watched folder every 0.5 s; a failing test waits this long


def _gated(gate: threading.Event, converted: list):
    def convert(job):
        assert gate.wait(TIMEOUT_S), "the test never opened the gate"
        converted.append(job[0])
        return job[0]
    return convert


def test_the_server_answers_first_and_rebuilds_the_notebook_views_when_they_are_ready(tmp_path):
    (tmp_path / "index.html").write_text("<html><body>home</body></html>", encoding="utf-8")
    gate, converted, rebuilt, redone = threading.Event(), [], threading.Event(), []
    later = Later(make_pool=lambda: ThreadPoolExecutor(2), convert=_gated(gate, converted))
    sources = [str(tmp_path / "zh.ipynb"), str(tmp_path / "en.ipynb")]

    # the first build (on_config, on_files): nothing to redo yet; both conversions handed over, both pages placeholders
    assert later.redo() == set() and later.wanted()
    later.defer([(s, s + ".json", {}, 6) for s in sources])
    later.served(later.pending())
    assert later.placeholders == set(sources)

    def builder() -> None:  # a rebuild: what it redoes, and that no conversion is left to defer
        redone.append((later.redo(), later.wanted()))
        later.served(later.pending())
        rebuilt.set()

    server = LiveReloadServer(builder=builder, host="127.0.0.1", port=0, root=str(tmp_path))
    listening = threading.Event()
    activate = server.server_activate  # socketserver's public step: the socket listens from here on

    def activated() -> None:
        activate()
        listening.set()

    server.server_activate = activated
    later.watch(server)  # on_serve
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        assert listening.wait(TIMEOUT_S)
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as resp:  # the server answers...
            assert resp.status == 200
        assert converted == [] and not rebuilt.is_set() and later.busy()  # ...before any notebook is converted
        gate.set()
        assert rebuilt.wait(TIMEOUT_S), "the server never rebuilt after the conversions ended"
        assert sorted(converted) == sorted(sources)
        assert redone[0] == (set(sources), False)  # the placeholders are rendered again; nothing more deferred
        assert later.placeholders == set()
    finally:
        server.shutdown()
        later.close()


def test_closing_drops_what_has_not_started_and_says_nothing(tmp_path, caplog):
    gate, converted = threading.Event(), []
    later = Later(make_pool=lambda: ThreadPoolExecutor(1), convert=_gated(gate, converted))
    later.defer([(f"{tmp_path}/{n}.ipynb", f"{n}.json", {}, 6) for n in range(3)])
    gate.set()
    with caplog.at_level(logging.INFO):
        later.close()  # Ctrl-C: the running conversion ends, the other two never start
    assert len(converted) <= 1 and later.pool is None
    assert "ready" not in caplog.text


def test_a_placeholder_holds_the_anchors_the_chapter_page_links_to():
    examples = ("autograd/leaf.py", "autograd/backward.py", "graph/leaf.py")
    chapter = SimpleNamespace(title="自动求导", examples=examples)
    html = markdown.markdown(placeholder_markdown(chapter, "zh"), extensions=["attr_list", "admonition"])
    for heading, anchor in section_headings(examples).values():
        assert f'id="{anchor}"' in html and heading in html
    assert "自动求导" in html and "make serve" in html
    assert "reloads by itself" in placeholder_markdown(chapter, "en")


def test_a_rebuild_redoes_the_notebook_views_that_were_being_prepared(tmp_path):
    serve = incremental.Serve()
    serve.dirty, serve.stamps = True, {}
    plan = incremental.Plan(False, "0 changed input(s)")
    serve.decide = lambda dirty, project: plan  # what changed is incremental's own test; here: nothing
    serve.start_build(SimpleNamespace(), {"/c/notebooks/zh/autograd.ipynb"})
    assert serve.plan.redoes("/c/notebooks/zh/autograd.ipynb") and not serve.plan.full
    assert "being prepared" in serve.plan.reason


def test_make_serve_prints_no_stale_files_note():
    """mkdocs-static-i18n builds the second language dirty into the folder of the first: MkDocs' note that
    it "contains stale files" said nothing true under make serve, in a fresh clone too."""
    serve = incremental.Serve()
    serve.serve_dirty(True)
    build_log = logging.getLogger("mkdocs.commands.build")
    try:
        record = build_log.makeRecord(build_log.name, logging.INFO, __file__, 0,
                                      "The directory contains stale files. Use --clean to remove them.", (), None)
        assert not all(f.filter(record) for f in build_log.filters)
        other = build_log.makeRecord(build_log.name, logging.INFO, __file__, 0, "Documentation built", (), None)
        assert all(f.filter(other) for f in build_log.filters)
    finally:
        for f in [f for f in build_log.filters if type(f).__name__ == "_NotInaccurate"]:
            build_log.removeFilter(f)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_one_progress_line_that_a_log_line_clears_first():
    screen = _Terminal()
    handler = logging.StreamHandler(screen)
    mkdocs_log = logging.getLogger("mkdocs")
    mkdocs_log.addHandler(handler)
    try:
        progress = Progress("notebook views", 2, stream=screen)
        progress.step()
        assert screen.getvalue().endswith("\r\x1b[Knotebook views 1/2")
        logging.getLogger("mkdocs.plugins.test").warning("a warning meanwhile")
        assert screen.getvalue().endswith("notebook views 1/2\r\x1b[Ka warning meanwhile\n")  # not printed over
        progress.step()
        progress.close()
        assert screen.getvalue().endswith("\r\x1b[Knotebook views 2/2\r\x1b[K") and not handler.filters
    finally:
        mkdocs_log.removeHandler(handler)
    plain = io.StringIO()  # a log file: nothing drawn
    Progress("notebooks", 1, stream=plain).step()
    assert plain.getvalue() == ""
