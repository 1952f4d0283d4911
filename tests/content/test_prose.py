"""Prose that cannot drift from its outputs (pytorch_notes/prose.py): numbers quoted by a chapter page are
printed by its examples on the tab shown first (or the sentence names the tab), and declared warnings are
explained. Fixture pages and made-up records here; the last test checks every page of the course."""

from __future__ import annotations

import json
import textwrap

import pytest
from pytorch_notes.parse import parse_example
from pytorch_notes.prose import chapter_pages, check_page, quoted
from pytorch_notes.store import layout
from pytorch_notes.store.model import FORMAT

EXAMPLE = """\
# %%
steps = 100
print("loss", 9712 / 10000, "count", 5453 + 1, "acc", 3249 / 10000)  # no literal backs 0.97 or 5,454

# %%{marker}
print("done")
"""


def _record(ex, kind: str, text: str) -> None:
    path = layout.record_path(ex.rel, kind, ex.path.parents[1])
    path.parent.mkdir(parents=True, exist_ok=True)
    cells = [{"index": c.index, "line": c.line, "source": c.source, "metadata": c.metadata, "key": c.key,
              "duration_s": 0.1, "outputs": [{"type": "stream", "name": "stdout", "text": text if c.index == 0
                                              else "done\n"}]} for c in ex.cells]
    if ex.cells[1].warns:
        cells[1]["outputs"].append({"type": "stream", "name": "stderr", "text": "./ch/a.py:6: UserWarning: hm\n"})
    path.write_text(json.dumps({
        "format": FORMAT, "example": ex.rel, "device_kind": kind, "key": ex.key, "source_sha256": ex.sha256,
        "provenance": {"device": "CPU" if kind == "cpu" else "NVIDIA H100 80GB HBM3", "device_kind": kind,
                       "torch": "2.13.0+cpu", "cuda": None if kind == "cpu" else "13.0", "python": "3.11.7",
                       "platform": "Linux", "captured_at": "2026-11-29T00:00:00Z", "duration_s": 1.0, "wall_s": 2.0},
        "cells": cells}), encoding="utf-8")


@pytest.fixture
def page(tmp_path, write_example, examples_dir):
    """Write an example with a CPU record (and a GPU one when ``gpu`` is given) and a page embedding it;
    return the page's problems as strings."""

    def check(prose: str, gpu: str | None = None, marker: str = "", front: str = "") -> list[str]:
        ex = parse_example(write_example("ch/a.py", EXAMPLE.format(marker=marker)), examples_dir)
        _record(ex, "cpu", "loss 0.9712 count 5454 acc 0.3249\n")
        if gpu is not None:
            _record(ex, "cuda", gpu)
        md = tmp_path / "ch.md"
        md.write_text(f"---\ndescription: d\n{front}---\n\n# Title\n\n::: example ch/a.py\n\n"
                      + textwrap.dedent(prose), encoding="utf-8")
        return [p.split(": ", 1)[1] for p in map(str, check_page(md, examples_dir))]

    return check


@pytest.mark.parametrize("prose", [
    "The loss is 0.97 and the count 5,454.",  # rounded to what the prose writes; thousands separators
    "The loss is `0.971`, 32.5 % correct, after 100 steps.",  # a number in code; a percent of 0.3249; a literal
    "Cells 3 and 4, dim 1, the H100 and float32 need no backing; nor does torch 2.11.0.",
])
def test_backed_numbers_pass(page, prose):
    assert page(prose) == []


@pytest.mark.parametrize("prose, bad", [
    ("The loss is 0.98.", "0.98"),  # 0.9712 does not round to it
    ("The count is 5,455.", "5,455"),
    ("About 160 times faster.", "160"),  # a ratio worked out by the writer
    ("Table:\n\n| a | b |\n|---|---|\n| 0.97 | 12.5 |\n", "12.5"),
])
def test_a_number_no_output_prints_fails_naming_it(page, prose, bad):
    found = page(prose)
    assert len(found) == 1 and found[0].startswith(f"{bad!r} is printed by no output"), found


def test_a_problem_names_the_page_line(tmp_path, page):
    page("Fine.\n\nThe loss is 0.98.\n")
    problems = check_page(tmp_path / "ch.md", tmp_path / "examples")
    assert [p.line for p in problems] == [11]


def test_stated_numbers_back_a_number_and_must_be_used_and_needed(page):
    front = 'stated_numbers:\n  "2.13": the torch version the project pins\n'
    assert page("It needs torch 2.13.", front=front) == []
    assert page("Nothing here.", front=front) == [
        "stated_numbers lists '2.13' (the torch version the project pins), which the prose does not quote: remove it"]
    needless = 'stated_numbers:\n  "0.97": a loss\n'
    assert page("The loss is 0.97.", front=needless)[0].startswith("stated_numbers lists '0.97', but an output")


def test_a_number_only_on_the_tab_not_shown_first_needs_its_tab_named(page):
    gpu = "loss 0.8811 count 5454 acc 0.3249\n"  # a fresh GPU record: its tab is shown first
    assert page("The loss is 0.97.", gpu=gpu)[0].startswith("'0.97' is only on the CPU tab")
    assert page("The loss is 0.97 on the CPU tab.", gpu=gpu) == []
    assert page("CPU 标签页上的损失是 0.97。", gpu=gpu) == []
    assert page("The loss is 0.88, and 0.97 on the GPU tab.", gpu=gpu)[0].startswith("'0.97' is only on the CPU")
    assert page("The loss is 0.88. The other tab says 0.97.", gpu=gpu) != [], "the tab is named per sentence"
    assert page("The count is 5,454 on both.", gpu=gpu) == []


def test_a_declared_warning_is_explained_on_the_page(page):
    marker = ' warns="UserWarning"'
    found = page("Nothing about it.", marker=marker)
    assert len(found) == 1 and "declares a UserWarning (warns=), which this page does not explain" in found[0]
    assert page("The `UserWarning` of the second cell is meant: ...", marker=marker) == []


def test_quoted_reads_the_precision_the_prose_writes():
    assert quoted("0.969").half == quoted("0.001").value / 2
    assert quoted("2.4e-07").matches(quoted("2.38e-07").value)
    assert not quoted("2.4e-07").matches(quoted("2.3e-07").value)
    assert quoted("4.00").matches(quoted("4.0049").value)
    assert quoted("5,454").value == 5454


@pytest.mark.parametrize("path", chapter_pages(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_page_of_the_course_passes(path):
    problems = check_page(path)
    assert not problems, "\n".join(map(str, problems))


def test_a_version_is_stated_never_backed_by_a_coincidence(page):
    found = page("It needs torch 2.0 and Python 3.11.")
    assert [f.split(" (", 1)[0] for f in found] == ["'2.0' is a version", "'3.11' is a version"]
    front = 'stated_numbers:\n  "2.0": PyTorch 2.0, which added torch.compile\n  "3.11": the Python it runs\n'
    assert page("It needs torch 2.0 and Python 3.11.", front=front) == []


def test_chinese_and_english_units_scale_the_number(page):
    assert page("数量约 0.55 万，约 5.45 thousand。") == []  # 5,454 rounds to both
    found = page("数量约 0.6 万。The count is 5.4 thousand.")
    assert [f.split(" is ", 1)[0] for f in found] == ["'0.6'", "'5.4'"]


def test_a_number_is_backed_by_the_examples_of_its_own_section(tmp_path, write_example, examples_dir):
    """0.9712 printed in section A does not back a 0.97 written in section B, which embeds another example
    (a coincidence on a long page); the introduction, which embeds none, may quote any example of the page."""
    for rel, printed in (("ch/a.py", "0.9712"), ("ch/b.py", "0.5000")):
        ex = parse_example(write_example(rel, f'# %%\nprint("{printed}")\n'), examples_dir)
        path = layout.record_path(ex.rel, "cpu", examples_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({
            "format": FORMAT, "example": ex.rel, "device_kind": "cpu", "key": ex.key, "source_sha256": ex.sha256,
            "provenance": {"device": "CPU", "device_kind": "cpu", "torch": "2.13.0+cpu", "cuda": None,
                           "python": "3.11.7", "platform": "Linux", "captured_at": "2026-11-29T00:00:00Z",
                           "duration_s": 1.0, "wall_s": 2.0},
            "cells": [{"index": 0, "line": 2, "source": ex.cells[0].source, "metadata": {}, "key": ex.cells[0].key,
                       "duration_s": 0.1, "outputs": [{"type": "stream", "name": "stdout", "text": printed + "\n"}]}]}))
    md = tmp_path / "ch.md"
    md.write_text("---\ndescription: d\n---\n\n# T\n\nThe loss ends at 0.97.\n\n## A\n\n::: example ch/a.py\n\n"
                  "Here 0.97.\n\n## B\n\n::: example ch/b.py\n\nHalf, 0.50, unlike 0.97.\n", encoding="utf-8")
    found = [str(p).split(": ", 1)[1] for p in check_page(md, examples_dir)]
    assert len(found) == 1 and found[0].startswith("'0.97' is printed by no output of the examples its section")
