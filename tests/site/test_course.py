"""One ``Course`` per build and language (``site/course.py``, issue 43 item 2): the nav's order gives the
chapters, and the notebooks, the zips, the times page, the course map and the navigation all list the
course from that one object instead of each reading the nav and the pages again."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import get_navigation
from pytorch_notes.parse import parse_example
from pytorch_notes.site import course as course_mod
from pytorch_notes.site import coursemap, nav, notebooks, times
from pytorch_notes.site.bundles import Bundles
from pytorch_notes.site.cache import Store
from pytorch_notes.site.downloads import Downloads
from pytorch_notes.site.exampleindex import ExampleIndex
from pytorch_notes.site.markers import replace_marker_lines
from pytorch_notes.site.project import Project
from test_store import fake_record, put

NAV = ["index.md", {"基础": ["b.md", "a.md"]}, {"关于": ["times.md"]}]
PAGES = {
    "index.md": "---\ndescription: 首页\n---\n\n# 首页\n\n<!-- course-map -->\n",
    "a.md": "---\ndescription: 甲\n---\n\n# A\n\n::: example ch1/x.py\n",
    "b.md": "---\ndescription: 乙\n---\n\n# B\n\n::: example ch2/y.py\n\n::: example ch1/x.py\n",
    "times.md": "---\ndescription: 时间\n---\n\n# T\n\n<!-- computation-times -->\n",
}


def _checkout(root: Path) -> tuple[Project, object]:
    """A checkout with two chapters (b.md before a.md in the nav), each example captured (made-up records),
    and its MkDocs configuration."""
    for lang in ("zh", "en"):
        for name, text in PAGES.items():
            (root / "docs" / lang).mkdir(parents=True, exist_ok=True)
            (root / "docs" / lang / name).write_text(text, encoding="utf-8")
    examples = root / "examples"
    for rel in ("ch1/x.py", "ch2/y.py"):
        (examples / rel).parent.mkdir(parents=True, exist_ok=True)
        (examples / rel).write_text("# %%\nprint(1)\n", encoding="utf-8")
        put(examples, fake_record(parse_example(examples / rel, examples)))
    (root / "mkdocs.yml").write_text(json.dumps({"site_name": "T", "nav": NAV, "docs_dir": "docs",
                                                 "site_dir": str(root / "site")}), encoding="utf-8")
    config = load_config(str(root / "mkdocs.yml"))
    config.plugins.run_event("startup", command="build", dirty=False)  # as a build starts (File.generated)
    project = Project(root / "mkdocs.yml", root, root / "docs", examples, root / ".cache")
    return project, config


def test_the_course_follows_the_nav_and_is_made_once_per_build_and_language(tmp_path, monkeypatch):
    project, config = _checkout(tmp_path)
    made = []
    real = course_mod.make_course
    monkeypatch.setattr(course_mod, "make_course", lambda *a: made.append(a[0]) or real(*a))
    courses = course_mod.Courses(project.docs_dir, project.examples_dir)
    zh = courses.of("zh", config)
    assert [p.page for p in zh.pages] == ["index.md", "b.md", "a.md", "times.md"]  # the nav's order
    assert [(c.page, c.title, c.examples) for c in zh.chapters] == [("b.md", "B", ("ch2/y.py", "ch1/x.py")),
                                                                   ("a.md", "A", ("ch1/x.py",))]
    assert zh.examples == ("ch2/y.py", "ch1/x.py") and zh.chapter_of("ch1/x.py").page == "b.md"
    assert [(s.name, s.pages) for s in zh.sections] == [("基础", ("b.md", "a.md")), ("关于", ("times.md",))]
    assert zh.chapters[0].slug == "b" and zh.chapters[0].folder == "pytorch-notes-b"
    for _ in range(3):  # every consumer of a language asks: one course
        assert courses.of("zh", config) is zh
    courses.of("en", config)
    assert made == ["zh", "en"]
    courses.new_build()
    assert courses.of("zh", config) is not zh and made == ["zh", "en", "zh"]


def test_notebooks_zips_times_course_map_and_nav_list_the_course_they_are_given(tmp_path):
    """A course whose order is not the nav's: each listing follows it, so none reads the nav or the pages again."""
    project, config = _checkout(tmp_path)
    courses = course_mod.Courses(project.docs_dir, project.examples_dir)
    nav_order = courses.of("zh", config)
    a, b = nav_order.chapters[1], nav_order.chapters[0]
    other = dataclasses.replace(nav_order, chapters=(a, b), examples=tuple(reversed(nav_order.examples)),
                                sections=tuple(reversed(nav_order.sections)))
    courses.made["zh"] = other
    examples = ExampleIndex(project.examples_dir)
    examples.new_build()

    site = notebooks.NotebookSite(examples, project, Store(tmp_path / "cache"), courses)
    site.write_all(config)
    assert [f.chapter.page for f in site.written["zh"] if f.chapter] == ["a.md", "b.md"]

    files = Files([])
    site.add_files(files, config, "zh")
    bundles = Bundles()
    Downloads(examples, bundles).add(files, config, other, site.downloads("zh"))
    assert list(bundles.links["zh"]) == ["a.md", "b.md"]

    page = SimpleNamespace(file=SimpleNamespace(src_uri="zh/times.md", url="times/"), meta={})
    assert [c.name for c in times.chapters(other, None, page, examples)] == ["ch1", "ch2"]
    shown = coursemap.course_map(other)
    assert shown.index("### 关于") < shown.index("### 基础"), shown

    for name in PAGES:  # the Markdown pages, in mkdocs-static-i18n's folder layout
        files.append(File(f"zh/{name}", str(project.docs_dir), config.site_dir, config.use_directory_urls))
    config.nav = [{"基础": ["zh/b.md", "zh/a.md"]}]
    section = nav.add_notebook_sections(get_navigation(files, config), files, other).items[0]
    assert [p.file.chapter.page for p in section.children[-1].children] == ["b.md", "a.md"]  # the section's
    assert section.children[-1].title == "示例笔记本"  # in the course's language


def test_the_plugin_hands_one_course_maker_to_the_notebooks():
    from conftest import opened_plugin

    plugin = opened_plugin()
    assert plugin.checkout.notebooks.courses is plugin.checkout.courses


def test_a_marker_line_is_replaced_outside_fenced_code_only_and_made_once():
    calls = []
    md = "# T\n\n  <!-- m -->  \n\n````\n<!-- m -->\n```\n<!-- m -->\n````\n\n<!-- m -->\ntext <!-- m -->"
    out, found = replace_marker_lines(md, "<!-- m -->", lambda: calls.append(1) or "X")
    assert found and calls == [1]
    assert out == "# T\n\nX\n\n````\n<!-- m -->\n```\n<!-- m -->\n````\n\nX\ntext <!-- m -->"
    assert replace_marker_lines("no marker\n", "<!-- m -->", lambda: pytest.fail("made")) == ("no marker\n", False)


def test_the_notebook_index_is_kept_across_builds_and_forgets_files_gone(tmp_path, monkeypatch):
    """``make serve`` reads ``notebooks.json`` once, not per rebuild, unless another build wrote it since;
    entries of notebook files that no longer exist (a copy of the checkout that shared the cache) are dropped."""
    project, config = _checkout(tmp_path)
    store = Store(tmp_path / "cache")
    gone = str(tmp_path / "elsewhere" / "x.ipynb")
    (store.root / "notebooks.json").parent.mkdir(parents=True, exist_ok=True)
    (store.root / "notebooks.json").write_text(json.dumps({gone: ["k", None]}), encoding="utf-8")
    reads = []
    real = notebooks._Index.__init__
    monkeypatch.setattr(notebooks._Index, "__init__", lambda self, s: reads.append(1) or real(self, s))
    examples = ExampleIndex(project.examples_dir)
    site = notebooks.NotebookSite(examples, project, store, course_mod.Courses(project.docs_dir, project.examples_dir))
    for _ in range(3):  # three builds of one process
        examples.new_build()
        site.new_build()
        site.write_all(config)
    assert len(reads) == 1
    saved = json.loads((store.root / "notebooks.json").read_text(encoding="utf-8"))
    assert gone not in saved and len(saved) == 8  # per language: 2 examples, 2 chapters
    (store.root / "notebooks.json").write_text(json.dumps(saved), encoding="utf-8")  # another build wrote it
    site.new_build()
    site.write_all(config)
    assert len(reads) == 2
