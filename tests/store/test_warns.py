"""Every warning in a stored output is meant (store/warns.py): declared by its cell with ``warns=``, and
``make capture`` exits 1 naming example and cell when one is not. The pages' side (the declared category is
explained where the example is embedded) is in test_prose.py."""

from __future__ import annotations

import json

import pytest
from pytorch_notes import capture
from pytorch_notes.parse import ExampleError, discover_examples, parse_example
from pytorch_notes.store import layout
from pytorch_notes.store.model import FORMAT
from pytorch_notes.store.warns import printed_warnings, problems

WARNS = """\
# %%
import warnings

print("first")

# %%{marker}
warnings.warn("mind the gap")
print("second")
"""
LINE = "./ch/w.py:7: UserWarning: mind the gap\n  warnings.warn(\"mind the gap\")\n"


def _record(ex, kind: str, stderr: str, key: str | None = None) -> None:
    """A made-up record of ``ex`` on ``kind`` whose second cell wrote ``stderr``."""
    path = layout.record_path(ex.rel, kind, ex.path.parents[1])
    path.parent.mkdir(parents=True, exist_ok=True)
    cells = [{"index": c.index, "line": c.line, "source": c.source, "metadata": c.metadata, "key": c.key,
              "duration_s": 0.1, "outputs": [{"type": "stream", "name": "stdout", "text": "x\n"}]} for c in ex.cells]
    if stderr:
        cells[1]["outputs"].append({"type": "stream", "name": "stderr", "text": stderr})
    path.write_text(json.dumps({
        "format": FORMAT, "example": ex.rel, "device_kind": kind, "key": key or ex.key, "source_sha256": ex.sha256,
        "provenance": {"device": "CPU" if kind == "cpu" else "NVIDIA H100 80GB HBM3", "device_kind": kind,
                       "torch": "2.13.0+cpu", "cuda": None, "python": "3.11.7", "platform": "Linux",
                       "captured_at": "2026-11-29T00:00:00Z", "duration_s": 1.0, "wall_s": 2.0},
        "cells": cells}), encoding="utf-8")


def test_declaring_a_warning_keeps_the_key(write_example, examples_dir):
    plain = parse_example(write_example("ch/w.py", WARNS.format(marker="")), examples_dir)
    declared = parse_example(write_example("ch/w.py", WARNS.format(marker=' warns="UserWarning"')), examples_dir)
    assert declared.cells[1].warns == ("UserWarning",)
    assert declared.key == plain.key, "a declaration changes nothing the cell runs: records stay fresh"
    raises = parse_example(write_example("ch/w.py", WARNS.format(marker=' raises="UserWarning"')), examples_dir)
    assert raises.key != plain.key, "other options stay part of the key"


@pytest.mark.parametrize("marker", [' warns="gap"', " warns=[]", ' warns=["UserWarning", 3]', " warns=true"])
def test_a_bad_declaration_names_file_and_line(write_example, examples_dir, marker):
    path = write_example("ch/w.py", WARNS.format(marker=marker))
    with pytest.raises(ExampleError, match=r"w\.py:6: warns= takes a warning category"):
        parse_example(path, examples_dir)


def test_an_undeclared_warning_is_named_with_example_cell_and_tab(write_example, examples_dir):
    ex = parse_example(write_example("ch/w.py", WARNS.format(marker="")), examples_dir)
    _record(ex, "cpu", LINE)
    found = [str(p) for p in problems(ex, examples_dir)]
    assert len(found) == 1
    assert found[0].startswith("examples/ch/w.py:7: cell 1 prints a UserWarning on the cpu tab")
    assert 'warns="UserWarning"' in found[0]


def test_a_declared_warning_passes_on_either_tab(write_example, examples_dir):
    ex = parse_example(write_example("ch/w.py", WARNS.format(marker=' warns="UserWarning"')), examples_dir)
    _record(ex, "cpu", "")
    _record(ex, "cuda", LINE)  # printed only on the GPU, declared once for both
    assert problems(ex, examples_dir) == []


def test_a_declaration_no_fresh_record_prints_is_outdated(write_example, examples_dir):
    ex = parse_example(write_example("ch/w.py", WARNS.format(marker=' warns=["UserWarning", "FutureWarning"]')),
                       examples_dir)
    _record(ex, "cpu", LINE)
    _record(ex, "cuda", "./ch/w.py:7: FutureWarning: old\n", key="0" * 16)  # stale: proves nothing
    found = [str(p) for p in problems(ex, examples_dir)]
    assert found == ["examples/ch/w.py:7: cell 1 declares warns='FutureWarning' but no fresh record prints it: "
                     "remove the declaration"]


def test_only_category_names_count():
    from pytorch_notes.store.model import Record, load

    text = ("UserWarning: Warning: Profiler clears events\n"  # one category: the message's "Warning:" is not one
            "torch.jit.TracerWarning: a qualified name\n"  # not how Python prints it: no category
            "a DeprecationWarning: mid-line counts\n")
    rec = load(Record, {
        "format": FORMAT, "example": "ch/w.py", "device_kind": "cpu", "key": "k", "source_sha256": "0" * 64,
        "provenance": {"device": "CPU", "device_kind": "cpu", "torch": "2.13.0", "cuda": None, "python": "3.11.7",
                       "platform": "Linux", "captured_at": "2026-11-29T00:00:00Z", "duration_s": 1.0, "wall_s": 1.0},
        "cells": [{"index": 0, "line": 1, "source": "", "metadata": {}, "key": "k", "duration_s": 0.1,
                   "outputs": [{"type": "stream", "name": "stderr", "text": text}]}]})
    assert [p.category for p in printed_warnings(rec)] == ["UserWarning", "DeprecationWarning"]


def test_capture_exits_1_on_an_undeclared_warning_and_keeps_the_record(write_example, examples_dir, capsys,
                                                                        monkeypatch):
    monkeypatch.setattr("pytorch_notes.execute.supervise.this_device_kind", lambda: "cpu")
    path = write_example("ch/w.py", WARNS.format(marker=""))
    assert capture.main([], examples_dir) == 1
    err = capsys.readouterr().err
    assert "examples/ch/w.py:7: cell 1 prints a UserWarning on the cpu tab" in err
    assert layout.record_path("ch/w.py", "cpu", examples_dir).exists(), "the run was good: its record is kept"
    path.write_text(WARNS.format(marker=' warns="UserWarning"'), encoding="utf-8")
    assert capture.main([], examples_dir) == 0, "declared: the record is still fresh and nothing is wrong"
    assert capture.main(["--force"], examples_dir) == 0


def test_every_warning_in_the_course_is_declared():
    found = [str(p) for path in discover_examples() for p in problems(parse_example(path))]
    assert not found, "\n".join(found)
