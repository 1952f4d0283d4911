"""Markdown conversions (pytorch_notes.site.mdcache) reused across builds give the pages a fresh build
gives, and a change anywhere in what a conversion reads does it again.

The builds are of a small two-language Material site (mkdocs-static-i18n) with only the cache's hook.
Whether a page's conversion came from the cache is seen by marking every stored entry: a page whose
content came from the cache carries the mark.
"""

from __future__ import annotations

import filecmp
import json
import logging
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from pytorch_notes.site import mdcache

MARK = "<!-- from the render cache -->"
PAGES = ("index.md", "a.md", "b.md")
CONFIG = """\
site_name: Cache test
site_url: http://127.0.0.1:8000/
copyright: {copyright}
theme:
  name: material
  language: zh
  features: [navigation.footer]
plugins:
  - i18n:
      docs_structure: folder
      fallback_to_default: false  # as in mkdocs.yml: a page without a twin has none in the other language
      languages:
        - {{locale: zh, name: 中文, default: true, build: true}}
        - {{locale: en, name: English, build: true}}
validation:
  anchors: warn
hooks:
  - hook.py
"""
HOOK = """\
from pytorch_notes.site import cache, mdcache
from pytorch_notes.site.project import Project

STORE = []


def on_config(config):
    STORE[:] = [cache.Store.of(Project.from_config(config))]  # as the plugin's: the checkout's .cache/pytorch-notes
    STORE[0].new_build()
    mdcache.install(STORE[0])
"""
ENTRIES = Path(".cache") / "pytorch-notes"  # the one cache of the checkout: markdown/


def _project(root: Path) -> Path:
    root.mkdir()
    (root / "mkdocs.yml").write_text(CONFIG.format(copyright="Copyright one"), encoding="utf-8")
    (root / "hook.py").write_text(HOOK, encoding="utf-8")
    for lang in ("zh", "en"):
        for name in PAGES:
            path = root / "docs" / lang / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f"# {lang} {name[:-3]}\n\nText of {name} in {lang}.\n", encoding="utf-8")
    return root


def _build(root: Path, site: str, *, cached: bool = True, monkeypatch) -> Path:
    monkeypatch.setenv("PYTORCH_NOTES_MARKDOWN_CACHE", "1" if cached else "0")
    monkeypatch.setattr("sys.argv", ["mkdocs", "build"])  # mkdocs-static-i18n reads --dirty from it
    config = load_config(str(root / "mkdocs.yml"), site_dir=str(root / site))
    logging.getLogger("mkdocs").setLevel(logging.WARNING)
    build(config)
    return root / site


def _pages(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8")
            for p in sorted(site.rglob("index.html"))}


def _same_as_fresh(root: Path, site: Path, monkeypatch) -> None:
    fresh = _build(root, "fresh", cached=False, monkeypatch=monkeypatch)
    for rel, html in _pages(site).items():
        assert html.replace(MARK, "") == (fresh / rel).read_text(encoding="utf-8"), rel


@pytest.fixture
def project(tmp_path):
    return _project(tmp_path / "project")


def test_a_cached_build_writes_what_an_uncached_one_does(project, monkeypatch):
    first = _build(project, "first", monkeypatch=monkeypatch)
    again = _build(project, "again", monkeypatch=monkeypatch)
    fresh = _build(project, "fresh", cached=False, monkeypatch=monkeypatch)
    pages = _pages(fresh)
    assert len(pages) == 2 * len(PAGES)
    for rel in pages:
        assert filecmp.cmp(first / rel, fresh / rel, shallow=False), rel
        assert filecmp.cmp(again / rel, fresh / rel, shallow=False), rel
    assert len(list((project / ENTRIES / "markdown").glob("*/*.json"))) == len(pages)  # one entry per page


def _mark_conversions(root: Path) -> None:
    for path in (root / ENTRIES / "markdown").glob("*/*.json"):
        entry = json.loads(path.read_text(encoding="utf-8"))
        entry["content"] = MARK + entry["content"]
        path.write_text(json.dumps(entry), encoding="utf-8")


def _converted_from_cache(site: Path) -> set[str]:
    return {rel for rel, html in _pages(site).items() if MARK in html.split("<article", 1)[-1]}


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_reused_conversion_warns_and_links_as_a_fresh_one(project, monkeypatch, caplog):
    page = project / "docs" / "zh" / "a.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n[b](b.md#zh-b) and [c](c.md)\n", encoding="utf-8")
    _build(project, "site", monkeypatch=monkeypatch)
    missing = ("Doc file 'zh/a.md' contains a link 'c.md', but the target 'zh/c.md' is not found "
               "among documentation files.")
    assert _warnings(caplog) == [missing]
    _mark_conversions(project)
    caplog.clear()
    site = _build(project, "site", monkeypatch=monkeypatch)
    assert _converted_from_cache(site) == set(_pages(site))  # every conversion reused ...
    assert _warnings(caplog) == [missing]  # ... and its warning said again

    b = project / "docs" / "zh" / "b.md"  # the anchor a links to goes: a's conversion is reused, the check is not
    b.write_text(b.read_text(encoding="utf-8").replace("# zh b", "# zh b renamed"), encoding="utf-8")
    caplog.clear()
    site = _build(project, "site", monkeypatch=monkeypatch)
    assert "a/index.html" in _converted_from_cache(site) and "b/index.html" not in _converted_from_cache(site)
    assert _warnings(caplog) == [missing, "Doc file 'zh/a.md' contains a link 'b.md#zh-b', "
                                          "but the doc 'zh/b.md' does not contain an anchor '#zh-b'."]

    (project / "docs" / "zh" / "c.md").write_text("# zh c\n", encoding="utf-8")  # a new file: links resolve anew
    caplog.clear()
    site = _build(project, "site", monkeypatch=monkeypatch)
    assert not _converted_from_cache(site) & {"index.html", "a/index.html", "b/index.html"}
    assert missing not in _warnings(caplog)
    _same_as_fresh(project, site, monkeypatch)


def test_only_the_conversions_a_change_reaches_are_done_again(project, monkeypatch):
    site = _build(project, "site", monkeypatch=monkeypatch)
    everything = set(_pages(site))
    _mark_conversions(project)
    assert _converted_from_cache(_build(project, "site", monkeypatch=monkeypatch)) == everything
    page = project / "docs" / "zh" / "b.md"  # its text: that page only
    page.write_text(page.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
    site = _build(project, "site", monkeypatch=monkeypatch)
    assert everything - _converted_from_cache(site) == {"b/index.html"}
    _same_as_fresh(project, site, monkeypatch)
    config = project / "mkdocs.yml"  # the configuration: every page
    config.write_text(CONFIG.format(copyright="Copyright two"), encoding="utf-8")
    _mark_conversions(project)
    site = _build(project, "site", monkeypatch=monkeypatch)
    assert _converted_from_cache(site) == set()
    _same_as_fresh(project, site, monkeypatch)


def test_plain_describes_settings_by_value_and_objects_without_a_stable_repr_by_type():
    class Opaque:
        pass

    assert mdcache.plain({"b": (1, 2), "a": {3, 1}}) == {"b": [1, 2], "a": [1, 3]}
    assert mdcache.plain(Opaque()).endswith("Opaque:")


def test_make_build_and_make_serve_share_the_conversions():
    """What only one of the two commands sets (``--strict``, the server's address) is in no key: switching
    between them converts no page again (the site_url mkdocs serve sets is put back by the plugin's on_config)."""
    built = {"site_name": "t", "strict": True, "dev_addr": "127.0.0.1:8000", "markdown_extensions": ["toc"]}
    served = {**built, "strict": False, "dev_addr": "127.0.0.1:8001"}
    assert mdcache.build_part(built, []) == mdcache.build_part(served, [])
    assert mdcache.build_part(built, []) != mdcache.build_part({**built, "markdown_extensions": []}, [])
