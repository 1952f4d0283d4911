""""Download all" (``pytorch_notes/site/bundles.py``, ``zips.py``, ``course.py``): a zip per chapter and
language, and one of the course.

Unit tests of the zip, its cache, its README and the links; then checks of the built site (the session's
one ``site`` build, in ``xdist_group("site")`` as tests/site/test_site.py): every chapter's zip is linked from
its page, holds the site's own downloads byte for byte, the course zip holds every chapter, and the
scripts inside are valid Python (two of one chapter's are run).
"""

from __future__ import annotations

import html
import io
import posixpath
import re
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace

import pytest
from pytorch_notes.execute.script import run_script
from pytorch_notes.parse import cell_options
from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site import bundles, zips
from pytorch_notes.site.cache import Store
from pytorch_notes.site.course import PREFIX, Chapter, make_course, nav_pages
from pytorch_notes.site.urls import py_url

MEMBERS = {"b/z.py": b"print('z')\n", "a.txt": "说明\n".encode(), "b/a.ipynb": b'{"cells": []}\n'}


# --- the zip -------------------------------------------------------------------------------------------

def test_zip_is_deterministic_and_sorted(monkeypatch):
    first = zips.zip_bytes(MEMBERS)
    monkeypatch.setattr(time, "time", lambda: 2_000_000_000.0)  # another day: no member takes the clock's time
    second = zips.zip_bytes(dict(reversed(list(MEMBERS.items()))))  # another insertion order
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        infos = zf.infolist()
        assert [i.filename for i in infos] == sorted(MEMBERS)
        assert {i.filename: zf.read(i) for i in infos} == MEMBERS
        assert {i.date_time for i in infos} == {zips.DATE_TIME}
        assert {(i.external_attr >> 16, i.create_system, i.compress_type) for i in infos} == \
            {(0o100644, 3, zipfile.ZIP_DEFLATED)}


def _zipfile_bytes(members: dict[str, bytes]) -> bytes:
    """The zip Python's ``zipfile`` writes of ``members`` with the settings ``zips.zip_bytes`` promises."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=zips.DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            zf.writestr(info, members[name], compresslevel=zips.COMPRESS_LEVEL)
    return buf.getvalue()


def test_the_zip_is_the_one_zipfile_writes_member_for_member():
    """``zip_bytes`` writes the archive's records itself (to reuse deflated members): the bytes are
    zipfile's, for ASCII and UTF-8 names, an empty member and one that does not compress."""
    members = {**MEMBERS, "读我/说明.txt": "中文\n".encode(), "empty": b"", "noise.bin": bytes(range(256)) * 40}
    assert zips.zip_bytes(members) == _zipfile_bytes(members)
    with zipfile.ZipFile(io.BytesIO(zips.zip_bytes(members))) as zf:
        assert zf.testzip() is None and {i.filename: zf.read(i) for i in zf.infolist()} == members


def test_a_member_is_deflated_once_per_content(monkeypatch):
    """Under ``make serve`` an example edit re-zips only what changed: the other members' deflated bytes
    are reused across zips (a course zip and a chapter zip hold the same file) and rebuilds."""
    deflated: list[bytes] = []
    real = zips.deflate
    monkeypatch.setattr(zips, "deflate", lambda data: deflated.append(data) or real(data))
    cache = zips.ZipCache()
    cache.zip(MEMBERS)
    assert sorted(deflated) == sorted(MEMBERS.values())
    deflated.clear()
    chapter = {"c/" + name: data for name, data in MEMBERS.items()}  # the same files under other names
    assert cache.zip(chapter) == _zipfile_bytes(chapter) and deflated == []
    edited = {**MEMBERS, "b/z.py": b"print('edited')\n"}
    assert cache.zip(edited) == _zipfile_bytes(edited) and deflated == [b"print('edited')\n"]
    cache.keep(10)  # Bundles keeps once per language: the other language's members stay one keep longer
    assert len(cache.deflated) == 4, "the members of the zips used since the last keep, old contents dropped"
    cache.zip({"en.txt": b"en\n"})
    cache.keep(10)
    assert len(cache.deflated) == 5
    cache.keep(10)
    assert list(cache.deflated) == [zips.digest(b"en\n")]


def test_each_languages_members_outlive_the_other_languages_zips(monkeypatch):
    """Bundles makes one language's zips, keeps, then the other's: an edit in the first language's next
    rebuild still finds its other members deflated."""
    deflated: list[bytes] = []
    real = zips.deflate
    monkeypatch.setattr(zips, "deflate", lambda data: deflated.append(data) or real(data))
    cache = zips.ZipCache()
    en = {name: data + b"# en\n" for name, data in MEMBERS.items()}
    for members in (MEMBERS, en):  # a build: zh, then en
        cache.zip(members)
        cache.keep(10)
    deflated.clear()
    cache.zip({**MEMBERS, "b/z.py": b"print('edited')\n"})  # the next rebuild, zh
    assert deflated == [b"print('edited')\n"]


def test_a_zip_from_the_last_build_gives_its_deflated_members(tmp_path, monkeypatch):
    """The first edit under ``make serve`` after a build that read its zips from the cache deflates only the
    edited member: the others come from the cached zip's local headers."""
    zips.ZipCache(Store(tmp_path)).zip(MEMBERS)
    deflated: list[bytes] = []
    real = zips.deflate
    monkeypatch.setattr(zips, "deflate", lambda data: deflated.append(data) or real(data))
    cache = zips.ZipCache(Store(tmp_path))  # a new process
    cache.zip(MEMBERS)
    edited = {**MEMBERS, "a.txt": b"edited\n"}
    assert cache.zip(edited) == _zipfile_bytes(edited) and deflated == [b"edited\n"]
    assert zips.deflated_members(_zipfile_bytes(edited)) == {name: real(data) for name, data in edited.items()}


def test_cached_zip_same_bytes_and_keyed_by_content(tmp_path, monkeypatch):
    cache = zips.ZipCache(Store(tmp_path))
    made = cache.zip(MEMBERS)
    assert made == zips.zip_bytes(MEMBERS)
    [entry] = list(tmp_path.glob("bundles/*/*.zip"))
    assert entry.read_bytes() == made
    monkeypatch.setattr(zips, "zip_bytes", lambda *args: pytest.fail("deflated again"))
    assert cache.zip(MEMBERS) == made  # from memory (the rebuilds of make serve)
    entry.write_bytes(b"the file is not read")
    assert cache.zip(MEMBERS) == made
    entry.write_bytes(made)
    assert zips.ZipCache(Store(tmp_path)).zip(MEMBERS) == made  # a new process: from the cache file, not deflated again
    monkeypatch.undo()
    changed = zips.ZipCache(Store(tmp_path)).zip({**MEMBERS, "a.txt": b"other\n"})
    assert changed != made and len(list(tmp_path.glob("bundles/*/*.zip"))) == 2
    with zipfile.ZipFile(io.BytesIO(changed)) as zf:
        assert zf.read("a.txt") == b"other\n"


# --- README, chapters, links ---------------------------------------------------------------------------

CHAPTER = Chapter("autograd.md", "自动求导", ("autograd/leaf.py", "autograd/backward.py"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_chapter_readme(lang):
    url = "https://example.org/autograd/"
    text = zips.chapter_readme(lang, "PyTorch", CHAPTER, url, raises=True)
    assert text.startswith("PyTorch · 自动求导\n")
    assert "leaf.py" in text and "backward.ipynb" in text and url in text
    assert "cd pytorch-notes-autograd\n    python leaf.py" in text
    assert "raises-exception" in text
    assert ("注释为中文" in text) == (lang == "zh") and ("comments in English" in text) == (lang == "en")
    quiet = zips.chapter_readme(lang, "PyTorch", CHAPTER, "", raises=False)
    assert "https://" not in quiet and "http://" not in quiet and "raises-exception" not in quiet


@pytest.mark.parametrize("lang", LANGUAGES)
def test_course_readme_lists_chapters_in_order(lang):
    other = Chapter("intro.md", "Intro", ("intro/first.py",))
    text = zips.course_readme(lang, "PyTorch", [other, CHAPTER], "https://example.org/", raises=False)
    assert text.index("intro/") < text.index("autograd/") and "cd pytorch-notes/intro\n    python first.py" in text
    assert "https://example.org/" in text


def test_chapters_in_nav_order(tmp_path):
    docs = tmp_path / "docs"
    for lang in LANGUAGES:
        (docs / lang).mkdir(parents=True)
        (docs / lang / "index.md").write_text("# Home\n", encoding="utf-8")
        (docs / lang / "b.md").write_text("# B\n\n::: example b/one.py\n\n::: example b/one.py\n", encoding="utf-8")
        (docs / lang / "a.md").write_text("# A\n\n::: example a/x.py\n\n::: example a/w.py\n", encoding="utf-8")
    nav = ["index.md", {"S": ["b.md", {"T": "a.md"}]}]
    assert nav_pages(nav) == ["index.md", "b.md", "a.md"]
    found = make_course("en", docs, tmp_path / "examples", nav, {}).chapters
    assert [(c.page, c.title, c.examples) for c in found] == [("b.md", "B", ("b/one.py",)),
                                                              ("a.md", "A", ("a/x.py", "a/w.py"))]
    assert [c.page for c in make_course("en", docs, tmp_path, None, {}).chapters] == ["a.md", "b.md"]  # sorted
    assert found[0].folder == "pytorch-notes-b" and bundles.chapter_url("en", found[0]) == \
        "en/downloads/pytorch-notes-b.zip" and bundles.chapter_url(LANGUAGES[0], found[0]) == \
        "downloads/pytorch-notes-b.zip"


def _page(src_uri: str, url: str):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri, url=url))


def test_links_on_chapter_and_home_pages():
    made = bundles.Bundles()  # the plugin's: the zips of the build, the chapters that have one
    made.links = {"en": {"autograd.md": CHAPTER}}
    link = made.chapter_link(_page("en/autograd.md", "en/autograd/"), None, "en")
    assert 'href="../downloads/pytorch-notes-autograd.zip" download>' in link and "all 2 examples" in link
    assert made.chapter_link(_page("en/about.md", "en/about/"), None, "en") == ""
    assert made.chapter_link(_page("zh/autograd.md", "autograd/"), None, "zh") == ""  # none in zh
    home = "# Home\n\n```\n[x](y.md){ .md-button }\n```\n\n[Start](intro.md){ .md-button }\n\nText\n"
    out = made.home_link(home, _page("en/index.md", "en/"), None, "en")
    assert out.split("\n")[3] == "[x](y.md){ .md-button }"  # not in a code block
    assert out.split("\n")[6].startswith('[Start](intro.md){ .md-button } <a class="md-button pn-bundle" '
                                         'href="downloads/pytorch-notes.zip" download>')
    bare = made.home_link("# Home\n\nText\n", _page("en/index.md", "en/"), None, "en")
    assert bare.split("\n")[2].startswith('<p class="pn-bundle"><a class="md-button pn-bundle"')
    assert made.home_link(home, _page("en/autograd.md", "en/autograd/"), None, "en") == home


# --- the built site ------------------------------------------------------------------------------------

site_group = pytest.mark.xdist_group("site")
LINK = re.compile(r'<a (?:class="[^"]*" )?href="([^"]+\.zip)" download>')


def _lang_root(lang: str) -> str:
    return "" if lang == LANGUAGES[0] else f"{lang}/"


def _linked_zips(site: Path, page_path: str) -> list[str]:
    """Site paths of the zips the built page at ``page_path`` (e.g. ``en/autograd/``) links to."""
    text = (site / page_path / "index.html").read_text(encoding="utf-8")
    return [posixpath.normpath(posixpath.join(page_path, html.unescape(h))) for h in LINK.findall(text)]


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        assert zf.testzip() is None, path
        return {i.filename: zf.read(i) for i in zf.infolist()}


def _chapters(lang: str):
    from mkdocs.config import load_config

    nav = load_config(str(Path(__file__).resolve().parents[2] / "mkdocs.yml")).nav
    root = Path(__file__).resolve().parents[2]
    return make_course(lang, root / "docs", root / "examples", nav, {}).chapters


@site_group
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_chapter_zip_is_linked_and_holds_the_site_downloads(site, lang):
    found = _chapters(lang)
    assert len(found) >= 20
    for chapter in found:
        zip_path = bundles.chapter_url(lang, chapter)
        assert _linked_zips(site, _lang_root(lang) + chapter.slug + "/") == [zip_path], chapter.page
        members = _members(site / zip_path)
        expected = {f"{chapter.folder}/README.txt"}
        for rel in chapter.examples:
            stem = rel.rsplit("/", 1)[-1][: -len(".py")]
            py = (site / py_url(lang, rel)).read_bytes()
            nb = (site / _lang_root(lang) / "notebooks" / f"{rel[: -len('.py')]}.ipynb").read_bytes()
            assert members[f"{chapter.folder}/{stem}.py"] == py, f"{zip_path}: {stem}.py"
            assert members[f"{chapter.folder}/{stem}.ipynb"] == nb, f"{zip_path}: {stem}.ipynb"
            expected |= {f"{chapter.folder}/{stem}.py", f"{chapter.folder}/{stem}.ipynb"}
        assert set(members) == expected, zip_path
        readme = members[f"{chapter.folder}/README.txt"].decode("utf-8")
        assert chapter.title in readme and f"cd {chapter.folder}" in readme
        assert ("运行方法" in readme) == (lang == "zh") and ("To run them" in readme) == (lang == "en")


@site_group
@pytest.mark.parametrize("lang", LANGUAGES)
def test_course_zip_holds_every_chapter_and_is_linked_from_home(site, lang):
    course = bundles.course_url(lang)
    assert _linked_zips(site, _lang_root(lang)) == [course]
    members = _members(site / course)
    expected = {f"{PREFIX}/README.txt"}
    for chapter in _chapters(lang):
        for name, data in _members(site / bundles.chapter_url(lang, chapter)).items():
            inner = name.split("/", 1)[1]
            if inner != "README.txt":
                key = f"{PREFIX}/{chapter.slug}/{inner}"
                assert members.get(key) == data, key
                expected.add(key)
        assert f"{chapter.slug}/" in members[f"{PREFIX}/README.txt"].decode("utf-8")
    assert set(members) == expected


@site_group
def test_every_script_in_every_zip_is_valid_python(site):
    checked = 0
    for zip_path in sorted(site.glob("**/downloads/*.zip")):
        for name, data in _members(zip_path).items():
            if name.endswith(".py"):
                compile(data, f"{zip_path.name}:{name}", "exec", dont_inherit=True)
                checked += 1
    assert checked >= 4 * 162  # chapters and course, both languages


@site_group
def test_scripts_of_a_chapter_run_where_they_are_unzipped(site, tmp_path):
    """Two examples of the first chapter (none of its cells is meant to raise, see #27), run as
    ``python <name>.py`` in the folder the zip unpacks to (``run_script``: the capture's runner and sandbox)."""
    chapter = next(c for c in _chapters("en") if c.slug == "intro")
    with zipfile.ZipFile(site / bundles.chapter_url("en", chapter)) as zf:
        zf.extractall(tmp_path)
    folder = tmp_path / chapter.folder
    scripts = sorted(folder.glob("*.py"))
    assert len(scripts) == len(chapter.examples)
    raising = [p.name for p in scripts if any("raises" in o for _, o in cell_options(p.read_text(encoding="utf-8")))]
    assert not raising, "pick a chapter without raises="
    chosen = [folder / "first_gradient.py", folder / "numpy_vs_torch.py"]
    with ThreadPoolExecutor(2) as pool:  # through the capture's runner and sandbox, as the examples run
        runs = list(pool.map(lambda p: run_script(p, cwd=folder, timeout_s=120), chosen))
    for path, run in zip(chosen, runs, strict=True):
        assert run.ok, f"{path.name}: {run.message}\n{run.stdout}{run.stderr}"
        assert run.stdout.strip(), f"{path.name} printed nothing"
