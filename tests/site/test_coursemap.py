"""The home page's course map is derived from the nav and the pages (site/coursemap.py, issue 27)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError
from pytorch_notes.site import coursemap
from pytorch_notes.site.course import make_course

NAV = [{"基础": ["a.md", "b.md"]}, {"附录": ["c.md"]}]


def write(d: Path, name: str, text: str) -> None:
    """The page ``name`` in both languages of the docs folder ``d``."""
    for lang in ("zh", "en"):
        (d / lang).mkdir(parents=True, exist_ok=True)
        (d / lang / name).write_text(text, encoding="utf-8")


def course_map(docs: Path, lang: str, translations: dict[str, str]) -> str:
    """The course map of the course of ``lang`` in ``docs`` with the nav ``NAV``."""
    return coursemap.course_map(make_course(lang, docs, docs / "examples", NAV, translations))


def test_sections_titles_descriptions_and_counts_come_from_the_pages(tmp_path):
    write(tmp_path, "a.md",
          "---\ndescription: 张量的创建。\n---\n\n# 张量\n\n::: example ch/x.py\n\n::: example ch/y.py\n")
    write(tmp_path, "b.md", "---\ndescription: 一个例子\n---\n\n# 一章\n\n::: example ch/z.py\n")
    write(tmp_path, "c.md", "---\ndescription: 中英对照\n---\n\n# 术语表\n")
    shown = course_map(tmp_path, "zh", {})
    assert shown == ("### 基础\n\n- [张量](a.md)：张量的创建。2 个示例\n- [一章](b.md)：一个例子。1 个示例\n\n"
                     "### 附录\n\n- [术语表](c.md)：中英对照。"), shown
    en = course_map(tmp_path, "en", {"基础": "Basics", "附录": "Appendix"})
    assert en.startswith("### Basics\n\n- [张量](a.md): 张量的创建. 2 examples\n- [一章](b.md): 一个例子. 1 example")


def test_a_page_without_a_description_fails_naming_the_file(tmp_path):
    write(tmp_path, "a.md", "# 张量\n")
    write(tmp_path, "b.md", "---\ndescription: x\n---\n# B\n")
    write(tmp_path, "c.md", "---\ndescription: x\n---\n# C\n")
    with pytest.raises(PluginError, match=r"docs/zh/a\.md:1: no `description:`"):
        course_map(tmp_path, "zh", {})


def test_the_marker_inside_a_code_block_stays(tmp_path):
    md = f"```\n{coursemap.MARKER}\n```\n"
    assert coursemap.fill_page(md, make_course("zh", tmp_path, tmp_path, [], {})) == md


def test_a_page_is_named_by_its_front_matter_title_else_its_first_heading():
    """The nav, the course map, the zips and the notebook view name a page alike (``pages.page_title``): a
    short ``title:`` beside a long first heading, which search still indexes (quickstart.md)."""
    from pytorch_notes.pages import page_title

    long = "# 快速上手：训练第一个模型的完整示例\n\n正文。\n"
    assert page_title(long) == "快速上手：训练第一个模型的完整示例"
    assert page_title("---\ntitle: 快速上手\ndescription: 一句话\n---\n\n" + long) == "快速上手"
    assert page_title("---\ntitle: \"Quickstart\"\n---\n# Quickstart: train your first model\n") == "Quickstart"
    assert page_title("---\ndescription: no title here\n---\n# Heading\n") == "Heading"
    assert page_title("no heading at all\n") is None


def test_the_map_names_a_page_by_its_nav_title_and_refuses_a_page_without_a_heading(tmp_path):
    front = "---\ntitle: 快速上手\ndescription: 一句话。\n---\n\n"
    write(tmp_path, "a.md", front + "# 快速上手：很长的标题\n\n::: example intro/first_gradient.py\n")
    write(tmp_path, "b.md", "---\ndescription: x\n---\n# B\n")
    write(tmp_path, "c.md", "---\ndescription: x\n---\n# C\n")
    assert "- [快速上手](a.md)：一句话。1 个示例\n" in course_map(tmp_path, "zh", {})
    write(tmp_path, "a.md", "---\ntitle: 快速上手\ndescription: 一句话\n---\n\n没有一级标题。\n")
    with pytest.raises(PluginError, match=r"docs/zh/a\.md: no `# Title` line"):
        course_map(tmp_path, "zh", {})


def test_a_source_path_gives_its_language_and_its_path_in_that_language():
    from pytorch_notes.site.urls import src_language

    assert src_language("en/autograd.md") == ("en", "autograd.md")
    assert src_language("zh/index.md") == ("zh", "index.md")
    assert src_language("404.html") == ("zh", "404.html")  # outside the language folders: the default's
