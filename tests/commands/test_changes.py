"""The output-change report (issue 30, item 2): what a re-capture changed, per cell, in the terminal, in
``--report FILE`` and between two stores (``scripts/output_changes.py``, the GPU pull request's body)."""

from __future__ import annotations

import json

from pytorch_notes import capture
from pytorch_notes.capture.changes import compare, main, markdown
from pytorch_notes.parse import parse_example
from pytorch_notes.store import layout
from pytorch_notes.store.model import Record, load
from test_store import fake_record
from test_untrusted import png


def record(ex, texts: list[str], figure: str | None = None, volatile: bool = False) -> Record:
    data = fake_record(ex)
    for cell, text in zip(data["cells"], texts, strict=True):
        cell["outputs"] = [{"type": "stream", "name": "stdout", "text": text}]
    if figure:
        data["cells"][0]["outputs"].append({"type": "image", "mime": "image/png", "data": figure, "width": 40,
                                            "height": 30})
    if volatile:
        data["cells"][-1]["metadata"] = {"volatile": True}
    return load(Record, data)


def test_a_changed_stream_is_a_line_diff_and_a_changed_figure_says_both_sizes(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", "# %%\nprint(1)\n# %%\nprint(2)\n"), examples_dir)
    old = record(ex, ["loss 0.50\nacc 0.9\n", "same\n"], figure=png(40, 30))
    new = record(ex, ["loss 0.49\nacc 0.9\n", "same\n"], figure=png(44, 30))
    changes = compare(old, new)
    assert [c.number for c in changes.cells] == [1] and not changes.new
    assert changes.cells[0].diff == ("@@ -1,2 +1,2 @@", "-[stdout] loss 0.50", "+[stdout] loss 0.49",
                                     " [stdout] acc 0.9",
                                     "~ figure 1 changed: 40x30 px, 81 bytes -> 44x30 px, 82 bytes")
    assert compare(new, new).cells == [] and compare(None, new).new


def test_the_report_puts_volatile_cells_apart_and_keeps_outputs_in_code_blocks(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", "# %%\nprint(1)\n# %%\nprint(2)\n"), examples_dir)
    old = record(ex, ["a\n", "took 1.0 s\n"], volatile=True)
    new = record(ex, ["b ```\n# not a heading\n", "took 1.2 s\n"], volatile=True)
    report = markdown([compare(old, new)], "Output changes on cpu")
    assert "1 example(s) re-captured: 1 with changed outputs, 0 new, 0 unchanged. Volatile cells" in report
    assert "### `examples/ch/ex.py` (cpu)\n\nCell 1, line 2:\n\n```diff\n" in report
    assert "\n# not a heading" not in report and "+[stdout] # not a heading" in report
    assert report.count("```") == 2, "the printed backticks cannot end the block"
    volatile = report.split("### Volatile cells")[1]
    assert "`examples/ch/ex.py` cell 2, line 4" in volatile and "took" not in volatile


def test_a_recapture_prints_the_changed_cells_and_writes_the_report(write_example, examples_dir, tmp_path, capsys):
    # read by the example: its output changes, its code does not (beside it: the sandbox shows the example
    # only the examples folder)
    write_example("ch/ex.py", "# %%\nimport pathlib\nprint('loss', pathlib.Path(__file__).parent"
                              ".joinpath('value.txt').read_text())\n# %%\nprint('unchanged')\n")
    value = examples_dir / "ch" / "value.txt"
    value.write_text("0.50")
    assert capture.main([], examples_dir) == 0
    value.write_text("0.49")
    report = tmp_path / "changes.md"
    capsys.readouterr()
    assert capture.main(["--force", "--report", str(report)], examples_dir) == 0
    out = capsys.readouterr().out
    assert "cell 1 (line 2): outputs changed" in out and "-[stdout] loss 0.50" in out and "+[stdout] loss 0.49" in out
    assert "1 ok (1 with changed or new outputs)" in out
    assert "-[stdout] loss 0.50\n+[stdout] loss 0.49" in report.read_text(encoding="utf-8")


def test_two_stores_are_compared_for_the_pull_request(write_example, examples_dir, tmp_path, capsys):
    ex = parse_example(write_example("ch/ex.py", "# %%\nprint(1)\n"), examples_dir)
    old_root, new_root = tmp_path / "old", tmp_path / "new"
    for root, text in ((old_root, "before\n"), (new_root, "after\n")):
        path = layout.record_path("ch/ex.py", "cpu", root)
        path.parent.mkdir(parents=True)
        data = fake_record(ex, text=text)
        path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["--old", str(old_root / "_outputs"), "--new", str(new_root / "_outputs"), "--kind", "cpu",
                 "--examples", str(examples_dir)]) == 0
    body = capsys.readouterr().out
    assert "-[stdout] before\n+[stdout] after" in body and body.startswith("## Output changes")


def test_an_example_that_needs_a_newer_torch_is_skipped_with_its_reason(write_example, examples_dir, tmp_path,
                                                                        capsys):
    """``min_torch`` in the header: the GPU image's torch (2.11) is older than the pinned one; such an
    example is skipped there, said, counted in the report, and part of what executes (its key)."""
    write_example("ch/new_api.py", '# /// example\n# min_torch = "99.0"\n# ///\n# %%\nprint(1)\n')
    write_example("ch/old_api.py", "# %%\nprint(2)\n")
    report = tmp_path / "changes.md"
    assert capture.main(["--report", str(report)], examples_dir) == 0
    out = capsys.readouterr().out
    assert "capture: skipped examples/ch/new_api.py: needs torch >= 99.0, this machine has " in out
    text = report.read_text(encoding="utf-8")
    assert "### Skipped (1)" in text and "- examples/ch/new_api.py: needs torch >= 99.0" in text
    assert not layout.record_path("ch/new_api.py", "cpu", examples_dir).exists()
    plain = parse_example(write_example("ch/same.py", "# %%\nprint(1)\n"), examples_dir)
    newer = parse_example(examples_dir / "ch/new_api.py", examples_dir)
    assert newer.min_torch == "99.0" and newer.key != plain.key and not newer.runs_with_torch("2.13.0+cpu")
    assert plain.runs_with_torch("2.11.0+cu130") and newer.runs_with_torch("99.0.1")
