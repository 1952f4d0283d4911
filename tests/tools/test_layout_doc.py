"""CONTRIBUTING maps the code to its stages (issue 28, item 7): every module of the pipeline package and
every test file is named in the layout tables of both languages, so the map cannot silently fall behind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scripts" / "pytorch_notes"
TABLES = {  # language -> (header of the modules table, header of the tests table)
    "zh": ("| 阶段 | 模块 | 做什么 |", "| 阶段 | 测试文件 |"),
    "en": ("| stage | module | what it does |", "| stage | test files |"),
}


def _table(text: str, header: str) -> str:
    """The Markdown table that starts with ``header`` (up to the first blank line)."""
    start = text.index(header)
    return text[start:text.index("\n\n", start)]


def _halves() -> dict[str, str]:
    zh, en = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split("\n## English\n", 1)
    return {"zh": zh, "en": en}


def _named(table: str) -> set[str]:
    """Module names in a table: ``site/plugin.py`` and, for the files listed beside it, ``channels.py``;
    a package (``capture/``) names every module under it."""
    return set(re.findall(r"`([\w/]+(?:\.py|/))`", table))


def _listed(module: str, named: set[str]) -> bool:
    folder = module.rsplit("/", 1)[0] + "/" if "/" in module else None
    return module in named or Path(module).name in {Path(n).name for n in named} or folder in named


@pytest.mark.parametrize("lang", TABLES)
def test_every_module_is_in_the_layout_table(lang):
    named = _named(_table(_halves()[lang], TABLES[lang][0]))
    modules = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")
    assert len(modules) > 40
    missing = [m for m in modules if not _listed(m, named)]
    assert not missing, f"CONTRIBUTING ({lang}) does not place these modules in a stage: {missing}"


@pytest.mark.parametrize("lang", TABLES)
def test_every_test_file_is_in_the_tests_table(lang):
    named = set(re.findall(r"test_\w+\.py", _table(_halves()[lang], TABLES[lang][1])))
    files = {p.name for p in (ROOT / "tests").rglob("test_*.py") if "fixtures" not in p.parts}
    unplaced = sorted(files - named)
    assert not unplaced, f"CONTRIBUTING ({lang}) does not place these test files in a stage: {unplaced}"
    assert not named - files, f"CONTRIBUTING ({lang}) names test files that do not exist: {sorted(named - files)}"


NOT_STAGES = {"fixtures", "vendor", "__pycache__"}  # folders of tests/ that hold no test files of their own


def _folders(lang: str) -> dict[str, str]:
    """``{test file name: its row's folder}`` from the tests table: a row names its folder in its stage
    cell (``| parse (`tests/parse/`) | `test_examplefile.py` ... |``)."""
    placed = {}
    for line in _table(_halves()[lang], TABLES[lang][1]).splitlines()[2:]:
        stage, files = line.split("|")[1:3]
        folder = re.fullmatch(r".*\(`tests/(\w+)/`\)", stage.strip())
        assert folder, f"CONTRIBUTING ({lang}): the tests table's row {stage.strip()!r} names no tests/<folder>/"
        for name in re.findall(r"test_\w+\.py", files):
            placed.setdefault(name, folder[1])  # a browser test named again in its stage's row keeps the first
    return placed


@pytest.mark.parametrize("lang", TABLES)
def test_every_test_file_sits_in_its_stage_folder(lang):
    """The tests mirror the stages (issue 43, item 5): no test file at the top of ``tests/``, none in a
    folder that names no stage, each in the folder of the row that names it; pytest's ``pythonpath``
    (pyproject.toml) lists each stage folder, so that a test may import another's helper by its name."""
    tests = ROOT / "tests"
    placed = _folders(lang)
    folders = set(placed.values())
    top = sorted(p.name for p in tests.glob("test_*.py"))
    assert not top, f"test files at the top of tests/, not in a stage folder: {top}"
    strays = sorted(p.name for p in tests.iterdir() if p.is_dir() and p.name not in folders | NOT_STAGES)
    assert not strays, f"folders of tests/ that name no stage of CONTRIBUTING's tests table ({lang}): {strays}"
    misplaced = sorted(f"{p.relative_to(tests)} (its row: tests/{placed[p.name]}/)"
                       for folder in folders for p in (tests / folder).rglob("test_*.py")
                       if p.name in placed and p.parent != tests / placed[p.name])
    assert not misplaced, f"test files outside their stage's folder: {misplaced}"
    pythonpath = re.search(r"pythonpath = \[([^\]]*)\]", (ROOT / "pyproject.toml").read_text(encoding="utf-8"))[1]
    assert {f"tests/{f}" for f in folders} <= set(re.findall(r'"([^"]+)"', pythonpath)), \
        "pyproject.toml's pythonpath leaves out a stage folder of tests/"
