"""A full build writes over the last build's site and removes what it did not write again
(pytorch_notes.site.sitedir). The whole-site check is in test_incremental.py."""

from __future__ import annotations

import os
import time

import mkdocs.utils
import pytest
from pytorch_notes.site import sitedir


def _write(path, text="x"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _age(path, seconds=5.0):
    t = time.time() - seconds
    os.utime(path, (t, t))


@pytest.fixture(autouse=True)
def _no_pending():
    sitedir.forget()
    yield
    sitedir.forget()


def test_files_not_written_again_are_removed_and_rewritten_ones_kept(tmp_path):
    site = tmp_path / "site"
    for rel in ("index.html", "a/index.html", "a/b/old.html", "gone/index.html", ".git/HEAD", ".nojekyll"):
        _write(site / rel)
        _age(site / rel)
    sitedir.defer_clean(str(site))
    assert (site / "gone" / "index.html").exists()  # nothing is deleted before the build
    _write(site / "index.html", "new")  # written over: same inode
    _write(site / "a" / "index.html", "new")
    _write(site / "c" / "new.html", "new")
    removed = sitedir.remove_stale()
    assert removed == ["a/b/old.html", "gone/index.html"]
    assert not (site / "gone").exists() and not (site / "a" / "b").exists()  # emptied folders go too
    assert (site / "index.html").read_text(encoding="utf-8") == "new"
    assert (site / "c" / "new.html").exists() and (site / "a" / "index.html").exists()
    assert (site / ".git" / "HEAD").exists() and (site / ".nojekyll").exists()  # hidden: kept, as MkDocs does
    assert sitedir.remove_stale() == []  # once per build


def test_a_file_written_in_the_same_clock_tick_as_the_start_is_kept(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    sitedir.defer_clean(str(site))
    _write(site / "fast.html")  # at once: its mtime may equal the recorded start, never precede it
    assert sitedir.remove_stale() == []


def test_a_failed_build_removes_nothing(tmp_path):
    site = tmp_path / "site"
    _write(site / "old.html")
    _age(site / "old.html")
    sitedir.defer_clean(str(site))
    sitedir.forget(RuntimeError("the build failed"))
    assert sitedir.remove_stale() == []
    assert (site / "old.html").exists()


def test_no_site_yet_means_nothing_to_remove(tmp_path):
    sitedir.defer_clean(str(tmp_path / "missing"))
    assert sitedir.remove_stale() == []


def test_install_replaces_mkdocs_clean_directory(monkeypatch):
    monkeypatch.setattr(mkdocs.utils, "clean_directory", sitedir._mkdocs_clean_directory)
    sitedir.install()
    assert mkdocs.utils.clean_directory is sitedir.defer_clean
    sitedir.install()  # idempotent
    assert mkdocs.utils.clean_directory is sitedir.defer_clean


def test_make_serve_does_not_rewrite_a_generated_file_with_the_same_content(tmp_path):
    from mkdocs.structure.files import File

    sitedir.keep_unchanged_generated_files()
    sitedir.keep_unchanged_generated_files()  # once: the second call wraps nothing
    site = tmp_path / "site"

    def generated(name, content):  # as File.generated makes it, without a whole configuration
        f = File(name, src_dir=None, dest_dir=str(site), use_directory_urls=True)
        if isinstance(content, bytes):
            f.content_bytes = content
        else:
            f.content_string = content
        return f

    f = generated("examples/a.py", "print('中文')\n")
    f.copy_file(dirty=False)  # a full build writes it
    path = site / "examples" / "a.py"
    old = time.time_ns() - 10**9
    os.utime(path, ns=(old, old))
    f.copy_file(dirty=True)  # a rebuild with the same content leaves it
    assert path.stat().st_mtime_ns == old
    f.copy_file(dirty=False)  # a full build writes it again (sitedir.remove_stale reads the time)
    assert path.stat().st_mtime_ns > old
    os.utime(path, ns=(old, old))
    g = generated("examples/a.py", "print('changed')\n")
    g.copy_file(dirty=True)
    assert path.read_text(encoding="utf-8") == "print('changed')\n"
    b = generated("fig.png", b"\x89PNG")
    b.copy_file(dirty=True)
    assert (site / "fig.png").read_bytes() == b"\x89PNG"
