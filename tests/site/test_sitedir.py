"""A full build writes over the last build's site and removes what it did not write again
(pytorch_notes.site.sitedir), through public events only. The whole-site check is in test_incremental.py."""

from __future__ import annotations

import os
import time

import mkdocs.utils
from pytorch_notes.site import sitedir


def _write(path, text="x"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _age(path, seconds=5.0):
    t = time.time() - seconds
    os.utime(path, (t, t))


def _build(site, clean=True):
    """What MkDocs does around the events: set aside (on_pre_build), clean or not, put back (on_files)."""
    state = sitedir.SiteDir()
    state.set_aside(str(site))
    if clean:
        mkdocs.utils.clean_directory(str(site))  # MkDocs' own clean-up of a full build
    state.put_back()
    return state


def test_files_not_written_again_are_removed_and_rewritten_ones_kept(tmp_path):
    site = tmp_path / "site"
    for rel in ("index.html", "a/index.html", "a/b/old.html", "gone/index.html", ".git/HEAD", ".nojekyll"):
        _write(site / rel)
        _age(site / rel)
    inode = (site / "index.html").stat().st_ino
    state = _build(site)
    assert (site / "gone" / "index.html").exists()  # MkDocs' clean-up deleted nothing
    assert sorted(os.listdir(site)) == [".git", ".nojekyll", "a", "gone", "index.html"]
    _write(site / "index.html", "new")  # written over: same inode
    assert (site / "index.html").stat().st_ino == inode
    _write(site / "a" / "index.html", "new")
    _write(site / "c" / "new.html", "new")
    removed = state.remove_stale()
    assert removed == ["a/b/old.html", "gone/index.html"]
    assert not (site / "gone").exists() and not (site / "a" / "b").exists()  # emptied folders go too
    assert (site / "index.html").read_text(encoding="utf-8") == "new"
    assert (site / "c" / "new.html").exists() and (site / "a" / "index.html").exists()
    assert (site / ".git" / "HEAD").exists() and (site / ".nojekyll").exists()  # hidden: kept, as MkDocs does
    assert state.remove_stale() == []  # once per build


def test_a_dirty_build_removes_nothing(tmp_path):
    site = tmp_path / "site"
    _write(site / "old.html")
    _age(site / "old.html")
    state = _build(site, clean=False)  # mkdocs build --dirty, mkdocs serve --dirty: MkDocs does not clean
    assert sorted(os.listdir(site)) == ["old.html"]  # the marker is gone too
    assert state.remove_stale() == []
    assert (site / "old.html").exists()


def test_a_file_written_in_the_same_clock_tick_as_the_start_is_kept(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    state = _build(site)
    _write(site / "fast.html")  # at once: its mtime may equal the recorded start, never precede it
    assert state.remove_stale() == []


def test_a_failed_build_removes_nothing_and_puts_back_what_was_set_aside(tmp_path):
    site = tmp_path / "site"
    _write(site / "old.html")
    _age(site / "old.html")
    state = sitedir.SiteDir()
    state.set_aside(str(site))
    assert not (site / "old.html").exists()
    state.forget(RuntimeError("the build failed"))  # before on_files
    assert state.remove_stale() == []
    assert (site / "old.html").exists() and not (site / sitedir.ASIDE).exists()


def test_what_a_killed_build_left_aside_comes_back_at_the_next(tmp_path):
    site = tmp_path / "site"
    _write(site / sitedir.ASIDE / "page" / "index.html")
    _write(site / "new.html")
    state = _build(site)
    assert (site / "page" / "index.html").exists() and not (site / sitedir.ASIDE).exists()
    assert state.remove_stale() == ["new.html", "page/index.html"]  # not written by this build: they go


def test_no_site_yet_means_nothing_to_remove(tmp_path):
    state = _build(tmp_path / "missing")
    assert state.remove_stale() == []


def test_make_serve_does_not_rewrite_a_generated_file_with_the_same_content(tmp_path):
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.plugins import BasePlugin
    from mkdocs.structure.files import File, Files

    site = tmp_path / "site"
    config = MkDocsConfig()
    config.load_dict({"site_name": "t", "site_dir": str(site), "docs_dir": str(tmp_path)})
    config.validate()

    class Downloads(BasePlugin):
        """Generates a download and a figure in ``on_files``, as the glue does (File.generated notes the plugin)."""
        contents = ("", b"")

        def on_files(self, files, *, config):
            content_py, content_png = self.contents
            return Files([*files, File.generated(config, "examples/a.py", content=content_py),
                          File.generated(config, "fig.png", content=content_png)])

    config.plugins["downloads"] = Downloads()

    def files_of(content_py, content_png):
        config.plugins["downloads"].contents = (content_py, content_png)
        page = File("index.md", str(tmp_path), str(site), True)
        return config.plugins.run_event("files", Files([page]), config=config)

    first = files_of("print('中文')\n", b"\x89PNG")
    assert sitedir.keep_unchanged_generated_files(first, config) is first  # nothing written yet
    for f in list(first)[1:]:
        f.copy_file(dirty=False)
    path = site / "examples" / "a.py"
    old = time.time_ns() - 10**9
    os.utime(path, ns=(old, old))
    files = files_of("print('中文')\n", b"\x89PNG!")
    again = sitedir.keep_unchanged_generated_files(files, config)
    assert again is files  # changed in place (mkdocs-static-i18n hands over its own kind of Files)
    assert [f.src_uri for f in again] == ["index.md", "examples/a.py", "fig.png"]  # the same order
    for f in list(again)[1:]:
        f.copy_file(dirty=True)
    assert path.stat().st_mtime_ns == old  # the same content: not written again
    assert not again.get_file_from_path("examples/a.py").is_modified()
    assert (site / "fig.png").read_bytes() == b"\x89PNG!"  # changed: written
    assert path.read_text(encoding="utf-8") == "print('中文')\n"
