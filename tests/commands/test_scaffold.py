"""``make new-chapter``: a new chapter is three files plus the nav line, and it passes the content checks."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pytorch_notes import scaffold
from pytorch_notes.pages import embed_mismatches, missing_twins, orphan_examples
from pytorch_notes.parse import parse_example
from pytorch_notes.site import coursemap
from pytorch_notes.site.course import make_course

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    for lang in ("zh", "en"):
        (tmp_path / "docs" / lang).mkdir(parents=True)
    (tmp_path / "examples").mkdir()
    return tmp_path


def test_new_chapter_touches_three_files_and_the_nav(repo, capsys):
    assert scaffold.main(["pruning", "--section", "进阶"], repo) == 0
    written = [ln.split("wrote ")[1] for ln in capsys.readouterr().out.splitlines() if "wrote" in ln]
    assert written == ["examples/pruning/first_example.py", "docs/zh/pruning.md", "docs/en/pruning.md",
                       "mkdocs.yml"]
    nav = (repo / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    section = nav.split("  - 进阶:\n", 1)[1].split("\n  - ", 1)[0]
    assert section.rstrip().endswith("      - pruning.md")
    assert (repo / "mkdocs.yml").read_text(encoding="utf-8").count("pruning.md") == 1
    # The new chapter already satisfies the content checks.
    assert parse_example(repo / "examples/pruning/first_example.py", repo / "examples").cells
    assert missing_twins(repo / "docs") == [] and embed_mismatches(repo / "docs") == []
    assert orphan_examples([repo / "examples/pruning/first_example.py"], repo / "examples", repo / "docs") == []
    # ... and it is on the home page's course map, with its description and count (issue 27: no hand-typed line)
    for lang, count in (("zh", "1 个示例"), ("en", "1 example")):
        nav = [{"进阶": ["pruning.md"]}]
        course = make_course(lang, repo / "docs", repo / "examples", nav, {"进阶": "Going further"})
        page = course.page("pruning.md")
        assert page.title == "Pruning" and course.chapter("pruning.md").examples == ("pruning/first_example.py",)
        assert coursemap.page_description(page.path, f"docs/{lang}/pruning.md")
        shown = coursemap.course_map(course)
        assert "[Pruning](pruning.md)" in shown and shown.rstrip().endswith(count), shown


def test_default_section_is_the_last_before_the_appendix(repo):
    scaffold.scaffold("extra", root=repo)
    nav = (repo / "mkdocs.yml").read_text(encoding="utf-8").split("\nnav:\n", 1)[1]
    assert "      - extra.md\n  - 附录:" in nav


@pytest.mark.parametrize("name, message", [
    ("Bad Name", "use lower-case letters"),
    ("", "use lower-case letters"),
])
def test_bad_names_are_refused(repo, capsys, name, message):
    assert scaffold.main([name], repo) == 2
    assert message in capsys.readouterr().err


def test_nothing_is_overwritten(repo, capsys):
    (repo / "docs/en/taken.md").write_text("# mine\n", encoding="utf-8")
    before = (repo / "mkdocs.yml").read_text(encoding="utf-8")
    assert scaffold.main(["taken"], repo) == 2
    assert "docs/en/taken.md already exists" in capsys.readouterr().err
    assert (repo / "docs/en/taken.md").read_text(encoding="utf-8") == "# mine\n"
    assert (repo / "mkdocs.yml").read_text(encoding="utf-8") == before
    assert not (repo / "examples/taken").exists()


def test_unknown_section_lists_the_sections(repo, capsys):
    assert scaffold.main(["x", "--section", "Nope"], repo) == 2
    assert "no nav section 'Nope'; sections are: 基础" in capsys.readouterr().err
