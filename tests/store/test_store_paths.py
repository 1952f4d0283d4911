"""The store's files (issue 26, items 4 and 6): the store never reads or writes outside ``examples/_outputs/``
through a symbolic link, and a record file that claims another example's or device's place, is too large, or
holds what no capture writes is refused naming the file and the field. Unit checks of the store's readers and
writers in a throw-away tree (the command's side: tests/commands/test_capture_paths.py).
"""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import OUTSIDE_SECRET as SECRET
from pytorch_notes.capture.report import prune
from pytorch_notes.execute.limits import RECORD_FILE_BYTES
from pytorch_notes.parse import parse_example
from pytorch_notes.store import layout
from pytorch_notes.store.model import Record, load
from pytorch_notes.store.records import (
    StoreError,
    capture_lock,
    load_failure,
    load_record,
    remove_leftover_temp_files,
    save_record,
    store_write_text,
)
from test_store import fake_record

OK = '# %%\nprint("hello")\n'


# --- the store -----------------------------------------------------------------------------------

def test_no_store_writer_goes_through_a_link(write_example, examples_dir, outside, tmp_path):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    record = load(Record, fake_record(ex))
    store = layout.store_dir(examples_dir)
    store.mkdir()
    (store / "ch").symlink_to(outside, target_is_directory=True)
    (outside / "a").mkdir()
    (outside / "a" / ".cpu.json.x.tmp").write_text("not a leftover of this store")
    with pytest.raises(StoreError, match=r"_outputs/ch/a/cpu\.json: refused: .*_outputs/ch is a symbolic link"):
        save_record(record, examples_dir)
    with pytest.raises(StoreError, match="symbolic link"):
        store_write_text(layout.record_path("ch/a.py", "cpu", examples_dir), "{}")
    (outside / "gone").mkdir()
    (store / "gone").symlink_to(outside / "gone", target_is_directory=True)
    (outside / "gone" / "x").mkdir()
    (outside / "gone" / "x" / "cpu.json").write_text("{}")  # an orphan, if the link were followed
    remove_leftover_temp_files(examples_dir)
    prune(examples_dir)
    assert sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*")) == [
        "a", "a/.cpu.json.x.tmp", "gone", "gone/x", "gone/x/cpu.json", "secret.py"]

    shutil.rmtree(store)  # now the store folder itself is a link
    store.symlink_to(outside, target_is_directory=True)
    for write in (lambda: capture_lock(examples_dir).__enter__(), lambda: remove_leftover_temp_files(examples_dir),
                  lambda: save_record(record, examples_dir), lambda: prune(examples_dir)):
        with pytest.raises(StoreError, match=r"_outputs(: refused: it)? is a symbolic link \(-> .*outside\)"):
            write()
    assert not (outside / ".lock").exists() and not (outside / "ch").exists()
    assert (outside / "a" / ".cpu.json.x.tmp").exists()


def test_a_linked_record_file_is_not_read(write_example, examples_dir, outside):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    (outside / "cpu.json").write_text(json.dumps(fake_record(ex, text=SECRET)), encoding="utf-8")
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.symlink_to(outside / "cpu.json")
    with pytest.raises(StoreError, match=r"ch/a/cpu\.json: refused: it is a symbolic link \(-> .*outside"):
        load_record("ch/a.py", "cpu", examples_dir)


@pytest.mark.parametrize("forged, field", [
    ({"example": "ch/other.py"}, "field example: 'ch/other.py', but the file is in the place of examples/ch/a.py"),
    ({"device_kind": "cuda"}, "field device_kind: 'cuda', but the file name says 'cpu'"),
    ({"provenance_kind": "cuda"}, "field provenance.device_kind: 'cuda', but the file name says 'cpu'"),
])
def test_a_record_that_claims_another_place_is_refused(write_example, examples_dir, forged, field):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    data = fake_record(ex)
    if "provenance_kind" in forged:
        data["provenance"]["device_kind"] = forged["provenance_kind"]
    else:
        data.update(forged)
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(StoreError) as err:
        load_record("ch/a.py", "cpu", examples_dir)
    assert str(err.value).startswith(f"{path}: {field}"), str(err.value)
    assert "Recover by re-capturing the example" in str(err.value)


def test_a_failure_marker_of_another_device_is_refused(write_example, examples_dir):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    marker = {"format": fake_record(ex)["format"], "example": "ch/a.py", "device_kind": "cuda", "key": ex.key,
              "source_sha256": ex.sha256, "status": "failed", "location": "examples/ch/a.py:2", "message": "x",
              "captured_at": "2026-11-23T00:00:00Z", "provenance": None}
    path = layout.failure_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(marker), encoding="utf-8")
    with pytest.raises(StoreError, match=r"cpu\.failed\.json: field device_kind: 'cuda'"):
        load_failure("ch/a.py", "cpu", examples_dir)


def test_an_oversize_record_file_is_refused_before_it_is_parsed(write_example, examples_dir):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    text = json.dumps(fake_record(ex))
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(text + " " * (RECORD_FILE_BYTES + 1 - len(text)), encoding="utf-8")  # valid JSON, too large
    with pytest.raises(StoreError) as err:
        load_record("ch/a.py", "cpu", examples_dir)
    assert str(err.value).startswith(f"{path}: {RECORD_FILE_BYTES + 1:,} bytes, more than the "
                                     f"{RECORD_FILE_BYTES:,}"), str(err.value)
    path.write_text(text, encoding="utf-8")
    assert load_record("ch/a.py", "cpu", examples_dir) is not None


def _nested(data: dict) -> str:
    return "[" * 100_000 + "]" * 100_000


def _huge_index(data: dict) -> str:
    data["cells"][0]["index"] = 10 ** 300
    return json.dumps(data)


def _nan_duration(data: dict) -> str:
    data["provenance"]["duration_s"] = float("nan")
    return json.dumps(data)


def _line_past_a_file(data: dict) -> str:
    data["cells"][0]["line"] = -4
    return json.dumps(data)


@pytest.mark.parametrize(("forge", "words"), [
    (_nested, "JSON nested too deep to be a record"), (_huge_index, "field cells[0].index"),
    (_nan_duration, "is not a duration"), (_line_past_a_file, "field cells[0].line: -4 is not a line")])
def test_a_record_no_capture_writes_is_refused_naming_its_field(write_example, examples_dir, forge, words):
    """What the format's types allow but no capture writes: each used to crash a tool (a RecursionError in
    every command, a file name too long in the build) or to pass ``validate_outputs``."""
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(forge(fake_record(ex)), encoding="utf-8")
    with pytest.raises(StoreError) as err:
        load_record("ch/a.py", "cpu", examples_dir)
    assert str(err.value).startswith(f"{path}: ") and words in str(err.value), str(err.value)
