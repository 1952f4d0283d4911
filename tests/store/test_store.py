"""Stage 3, store: the typed record format, records per device, freshness by what runs, migration.

Records here are made up (fixtures in a temporary examples tree); ``examples/_outputs/`` holds only
real captures, which ``test_every_committed_file_loads_and_matches_the_schema`` checks.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from pytorch_notes.capture.cli import record_from_run
from pytorch_notes.execute.supervise import run_example
from pytorch_notes.parse import parse_example
from pytorch_notes.settings import EXAMPLES_DIR
from pytorch_notes.store import layout
from pytorch_notes.store.migrate import migrate_store
from pytorch_notes.store.model import FORMAT, Failure, Record, json_schema, load
from pytorch_notes.store.records import StoreError, freshness, save_record

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "scripts/pytorch_notes/store/record.schema.json"
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="


def provenance(kind: str = "cpu", **extra) -> dict:
    gpu = kind == "cuda"
    return {"device": "NVIDIA H100 80GB HBM3" if gpu else "CPU", "device_kind": kind,
            "torch": "2.11.0+cu130" if gpu else "2.13.0+cpu", "cuda": "13.0" if gpu else None,
            "python": "3.12.3", "platform": "Linux", "captured_at": "2026-11-23T03:30:00Z",
            "duration_s": 1.5, "wall_s": 3.0, "driver": "580.65.06" if gpu else None, "libraries": {}, **extra}


def fake_record(ex, kind: str = "cpu", text: str = "made up\n") -> dict:
    """A made-up record of parsed example ``ex`` on ``kind`` (JSON data)."""
    cells = [{"index": c.index, "line": c.line, "source": c.source, "metadata": c.metadata, "key": c.key,
              "duration_s": 0.01, "outputs": [{"type": "stream", "name": "stdout", "text": text}]} for c in ex.cells]
    return {"format": FORMAT, "example": ex.rel, "device_kind": kind, "key": ex.key, "source_sha256": ex.sha256,
            "provenance": provenance(kind), "cells": cells}


def put(examples_dir: Path, data: dict, kind: str = "cpu") -> Path:
    path = layout.record_path(data["example"], kind, examples_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


SOURCE = """\
# %%
# a comment
x = 1 + 1
print(x)

# %% raises="ZeroDivisionError"
1 / 0
"""


def test_a_record_of_the_wrong_shape_names_the_file_and_the_field(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    data = fake_record(ex)
    del data["cells"][1]["outputs"][0]["text"]
    path = put(examples_dir, data)
    with pytest.raises(StoreError) as err:
        freshness(ex, examples_dir)
    assert str(err.value).startswith(f"{path}: field cells[1].outputs[0].text: missing")
    assert 'make capture ARGS="--force examples/ch/ex.py"' in str(err.value)


@pytest.mark.parametrize("field, value, words", [
    ("device_kind", "tpu", "field device_kind: expected one of ['cuda', 'cpu'], got 'tpu'"),
    ("cells", {}, "field cells: expected a list"),
    ("extra", 1, "unknown field(s) ['extra']"),
    ("format", 7, "field format: expected 2, got 7"),
])
def test_every_field_is_checked(write_example, examples_dir, field, value, words):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, {**fake_record(ex), field: value})
    with pytest.raises(StoreError, match=r"cpu\.json: ") as err:
        freshness(ex, examples_dir)
    assert words in str(err.value)


def test_the_checked_in_schema_is_the_models():
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == json_schema(), \
        "regenerate: .venv/bin/python -m pytorch_notes.store.model > scripts/pytorch_notes/store/record.schema.json"


def test_every_committed_file_loads_and_matches_the_schema():
    files = layout.stored_files(EXAMPLES_DIR)
    assert files, "the store is empty"
    validator = jsonschema.Draft202012Validator(json_schema())
    for f in files:
        assert not f.legacy and f.kind, f"{f.path}: not a current store file"
        data = json.loads(f.path.read_text(encoding="utf-8"))
        load(Failure if f.failure else Record, data)
        errors = list(validator.iter_errors(data))
        assert not errors, f"{f.path}: {errors[0].message}"


def test_the_schema_rejects_what_the_model_rejects(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    good = fake_record(ex)
    jsonschema.validate(good, json_schema())
    bad = {**good, "device_kind": "tpu"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, json_schema())


def test_comments_and_formatting_keep_records_fresh_code_options_and_header_do_not(write_example, examples_dir):
    path = write_example("ch/ex.py", SOURCE)
    ex = parse_example(path, examples_dir)
    put(examples_dir, fake_record(ex))
    assert freshness(ex, examples_dir).state == "fresh"

    def state_after(text: str) -> str:
        path.write_text(text, encoding="utf-8")
        return freshness(parse_example(path, examples_dir), examples_dir).state

    assert state_after(SOURCE.replace("# a comment", "# another comment\n\n# more")) == "fresh"
    assert state_after(SOURCE.replace("x = 1 + 1", "x = (1 +\n     1)  # same code")) == "fresh"
    assert state_after(SOURCE.replace("1 + 1", "1 + 2")) == "stale"
    assert state_after(SOURCE.replace('raises="ZeroDivisionError"', 'raises="ArithmeticError"')) == "stale"
    assert state_after("# /// example\n# timeout = 30\n# ///\n" + SOURCE) == "stale"


def test_a_page_shows_the_fresh_cuda_record_else_the_cpu_one(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, fake_record(ex, "cpu", "on the cpu\n"), "cpu")
    assert freshness(ex, examples_dir).preferred.kind == "cpu"
    put(examples_dir, fake_record(ex, "cuda", "on the gpu\n"), "cuda")
    fresh = freshness(ex, examples_dir)
    assert fresh.preferred.kind == "cuda" and fresh.record.provenance.device_kind == "cuda"
    assert set(fresh.devices) == {"cuda", "cpu"}
    stale = {**fake_record(ex, "cuda"), "key": "0" * 16}
    put(examples_dir, stale, "cuda")
    fresh = freshness(ex, examples_dir)
    assert fresh.preferred.kind == "cpu" and fresh.devices["cuda"].state == "stale"


def test_a_cuda_only_example_has_only_a_cuda_record(write_example, examples_dir):
    ex = parse_example(write_example("ch/gpu.py", '# /// example\n# requires = ["cuda"]\n# ///\n# %%\nx = 1\n'),
                       examples_dir)
    assert set(freshness(ex, examples_dir).devices) == {"cuda"}


def test_migration_upgrades_format_1_in_place_and_keeps_gpu_outputs(write_example, examples_dir):
    path = write_example("ch/ex.py", SOURCE)
    ex = parse_example(path, examples_dir)
    outputs = [[{"type": "stream", "name": "stdout", "text": "2\n"},
                {"type": "image", "mime": "image/png", "data": PNG, "width": 10, "height": 10}],
               [{"type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero", "line": 7,
                 "expected": True, "traceback": "Traceback ..."}]]
    v1 = {"format": 1, "example": "ch/ex.py", "source_sha256": ex.sha256,
          "provenance": {k: v for k, v in provenance("cuda").items() if k not in ("driver", "libraries")},
          "cells": [{"index": c.index, "line": c.line, "source": c.source, "metadata": c.metadata,
                     "duration_s": 0.5, "outputs": outputs[c.index]} for c in ex.cells]}
    legacy, legacy_failure = layout.legacy_paths("ch/ex.py", examples_dir)
    legacy.parent.mkdir(parents=True)
    legacy.write_text(json.dumps(v1), encoding="utf-8")
    legacy_failure.write_text(json.dumps({"format": 1, "example": "ch/ex.py"}), encoding="utf-8")
    with pytest.raises(StoreError, match="ARGS=--migrate"):
        freshness(ex, examples_dir)

    done = migrate_store(examples_dir)

    assert {m.source for m in done} == {legacy, legacy_failure}
    assert not legacy.exists() and not legacy_failure.exists()
    fresh = freshness(ex, examples_dir)
    assert fresh.state == "fresh" and fresh.preferred.kind == "cuda"
    record = fresh.record
    assert record.provenance.device == "NVIDIA H100 80GB HBM3" and record.provenance.cuda == "13.0"
    migrated = [[{k: v for k, v in o.__dict__.items() if not (k == "alt" and v == "")} for o in c.outputs]
                for c in record.cells]  # an Image's alt (added later, optional) defaults to ""
    assert migrated == outputs
    assert migrate_store(examples_dir) == []  # idempotent


def test_migrating_a_record_that_was_already_stale_keeps_it_stale(write_example, examples_dir):
    path = write_example("ch/ex.py", SOURCE)
    ex = parse_example(path, examples_dir)
    v1 = {"format": 1, "example": "ch/ex.py", "source_sha256": "0" * 64, "provenance": provenance("cpu"),
          "cells": [{"index": 0, "line": 3, "source": "x = 1", "metadata": {}, "duration_s": 0.1, "outputs": []}]}
    legacy, _ = layout.legacy_paths("ch/ex.py", examples_dir)
    legacy.parent.mkdir(parents=True)
    legacy.write_text(json.dumps(v1), encoding="utf-8")
    migrate_store(examples_dir)
    assert freshness(ex, examples_dir).state == "stale"


def test_saving_one_device_never_touches_another(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    gpu = put(examples_dir, fake_record(ex, "cuda"), "cuda")
    before = gpu.read_bytes()
    save_record(load(Record, fake_record(ex, "cpu")), examples_dir)
    assert gpu.read_bytes() == before
    assert layout.record_path("ch/ex.py", "cpu", examples_dir).exists()


def test_store_is_deterministic_json(write_example, examples_dir):
    path = write_example("ch/ex.py", '# %%\nprint("<b>hi</b> 张量")\n')
    ex = parse_example(path, examples_dir)
    saved = save_record(record_from_run(run_example(ex)), examples_dir)  # a real run's record
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["source_sha256"] == ex.sha256 and data["example"] == "ch/ex.py"
    assert "张量" in saved.read_text(encoding="utf-8")  # stored as UTF-8, not \\u escapes
    assert freshness(ex, examples_dir).state == "fresh"


def test_corrupt_store_file_says_how_to_recover(write_example, examples_dir):
    path = write_example("ch/ex.py", '# %%\nprint(1)\n')
    rec = layout.record_path("ch/ex.py", "cpu", examples_dir)
    rec.parent.mkdir(parents=True)
    rec.write_text("{not json")
    with pytest.raises(StoreError, match=r"cpu\.json: not valid JSON.*make capture ARGS=\"--force examples/ch/ex.py\""):
        freshness(parse_example(path, examples_dir), examples_dir)


@pytest.mark.parametrize(("path", "example"), [
    ("ch/name.py", "ch/name.py"),
    ("_outputs/ch/name/cpu.json", "ch/name.py"),
    ("_outputs/ch/name/cuda.failed.json", "ch/name.py"),
    ("_outputs/ch/name.json", "ch/name.py"),  # format 1
    ("_outputs/ch/name.failed.json", "ch/name.py"),
    ("_outputs/README.md", "_outputs/README.md"),
])
def test_the_layout_names_the_example_of_a_stored_file(path, example):
    """``make serve`` (site/incremental.py) reads again the example of a changed file of examples/."""
    assert layout.example_of(path) == example
