"""The ``make capture`` command: what it accepts, only stale examples run, a failed re-capture keeps the
last good record, what ``--list`` and ``--prune`` report, shards, records per device, progress."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pytorch_notes import capture
from pytorch_notes.capture.progress import PlainProgress, make_progress
from pytorch_notes.capture.select import SelectionError, parse_shard, select, shard
from pytorch_notes.pages import PageError, find_embeds
from pytorch_notes.parse import NAME_RULE, ExampleError, parse_example
from pytorch_notes.store import layout
from pytorch_notes.store.layout import failure_path, record_path
from pytorch_notes.store.model import FORMAT
from pytorch_notes.store.records import freshness

ROOT = Path(__file__).resolve().parents[2]
OK = '# %%\nprint("hello")\n'


@pytest.fixture
def cpu_here(monkeypatch):
    monkeypatch.setattr("pytorch_notes.execute.supervise.this_device_kind", lambda: "cpu")


def test_paths_outside_examples_are_refused_and_nothing_is_written(examples_dir, capsys):
    code = capture.main([str(ROOT / "scripts" / "pytorch_notes" / "pages.py")], examples_dir)
    assert code == 2
    err = capsys.readouterr().err
    assert "pages.py: outside" in err and "capture runs only the course's examples" in err
    assert not layout.store_dir(examples_dir).exists()


def test_the_real_command_refuses_a_script_of_the_pipeline():
    proc = subprocess.run([sys.executable, "scripts/capture.py", "scripts/pytorch_notes/pages.py"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "outside examples/" in proc.stderr
    assert not (ROOT / "examples/_outputs/pytorch_notes").exists()


@pytest.mark.parametrize("rel", ["ch/Bad.py", "ch/two words.py", "Ch/x.py", "ch/-x.py"])
def test_one_name_rule_stated_in_every_error(write_example, examples_dir, rel):
    path = write_example(rel, OK)
    with pytest.raises(ExampleError) as err:
        parse_example(path, examples_dir)
    assert NAME_RULE in str(err.value)
    with pytest.raises(PageError) as err:
        find_embeds(f"::: example {rel}\n", "docs/zh/p.md")
    assert NAME_RULE in str(err.value) and str(err.value).startswith("docs/zh/p.md:1:")


def test_a_file_that_is_not_an_example_is_refused(examples_dir):
    (examples_dir / "ch").mkdir()
    notes = examples_dir / "ch" / "notes.txt"
    notes.write_text("x")
    with pytest.raises(SelectionError, match="not an example"):
        select([str(notes)], examples_dir)


def test_failed_recapture_keeps_last_good_outputs(write_example, examples_dir, capsys):
    path = write_example("ch/ex.py", '# %%\nprint("good")\n')
    assert capture.main([str(path)], examples_dir) == 0
    good = record_path("ch/ex.py", "cpu", examples_dir).read_text()

    path.write_text('# %%\nprint("about to fail")\nraise ValueError("bad input")\n')
    assert capture.main([str(path)], examples_dir) == 1
    err = capsys.readouterr().err
    assert "ch/ex.py:3: ValueError: bad input (previous outputs kept)" in err
    assert record_path("ch/ex.py", "cpu", examples_dir).read_text() == good
    fresh = freshness(parse_example(path, examples_dir), examples_dir)
    assert fresh.state == "stale" and fresh.failure.location.endswith("ch/ex.py:3")

    path.write_text('# %%\nprint("fixed")\n')
    assert capture.main([str(path)], examples_dir) == 0
    assert not failure_path("ch/ex.py", "cpu", examples_dir).exists()
    assert "fixed" in record_path("ch/ex.py", "cpu", examples_dir).read_text()


def test_only_stale_examples_run(write_example, examples_dir, capsys):
    a = write_example("ch/a.py", '# %%\nprint("a")\n')
    write_example("ch/b.py", '# %%\nprint("b")\n')
    assert capture.main([], examples_dir) == 0
    capsys.readouterr()
    assert capture.main([], examples_dir) == 0
    assert "nothing to run: 2 example(s) have fresh cpu records" in capsys.readouterr().out
    a.write_text('# %%\nprint("a2")\n')
    assert capture.main([], examples_dir) == 0
    out = capsys.readouterr().out
    assert "running 1 of 2" in out and "ch/a.py" in out and "ch/b.py" not in out


def test_cuda_only_examples_are_skipped_without_cuda(write_example, examples_dir, capsys, monkeypatch):
    monkeypatch.setattr("pytorch_notes.execute.supervise.this_device_kind", lambda: "cpu")
    write_example("ch/gpu.py", '# /// example\n# requires = ["cuda"]\n# ///\n# %%\nprint(1)\n')
    assert capture.main([], examples_dir) == 0
    assert "needs CUDA" in capsys.readouterr().out
    assert not record_path("ch/gpu.py", "cpu", examples_dir).exists()


def test_list_shows_each_device_and_exits_0_when_all_is_fresh(write_example, examples_dir, capsys, cpu_here):
    write_example("ch/a.py", OK)
    assert capture.main([], examples_dir) == 0
    capsys.readouterr()
    assert capture.main(["--list"], examples_dir) == 0
    out = capsys.readouterr().out
    assert "fresh    none     " in out and "ch/a.py" in out and "0 problem(s)" in out
    assert "missing" not in out, "a CUDA record is optional: its absence is not called missing"


@pytest.mark.parametrize("breaks, words", [
    ("stale", "the cpu record is stale"),
    ("missing", "no cpu record (never captured)"),
    ("malformed", "malformed"),
    ("corrupt", "not valid JSON"),
    ("failed", "the last capture on cpu failed"),
    ("orphan", "orphan: examples/gone/x.py does not exist"),
])
def test_list_exits_1_naming_what_needs_doing(write_example, examples_dir, capsys, cpu_here, breaks, words):
    path = write_example("ch/a.py", OK)
    assert capture.main([], examples_dir) == 0
    record = layout.record_path("ch/a.py", "cpu", examples_dir)
    if breaks == "stale":
        path.write_text('# %%\nprint("changed")\n')
    elif breaks == "missing":
        record.unlink()
    elif breaks == "malformed":
        write_example("ch/b.py", "# %% oops\nx = 1\n")
    elif breaks == "corrupt":
        record.write_text("{")
    elif breaks == "failed":
        path.write_text('# %%\nraise ValueError("no")\n')
        assert capture.main([], examples_dir) == 1
    elif breaks == "orphan":
        orphan = layout.record_path("gone/x.py", "cpu", examples_dir)
        orphan.parent.mkdir(parents=True)
        orphan.write_text(record.read_text())
    capsys.readouterr()
    assert capture.main(["--list"], examples_dir) == 1
    captured = capsys.readouterr()
    assert words in captured.out + captured.err


def test_prune_removes_deleted_examples_records_outdated_failures_and_wrong_devices(write_example, examples_dir,
                                                                                    capsys, cpu_here):
    gone = write_example("gone/x.py", OK)
    failing = write_example("ch/f.py", OK)
    gpu_only = write_example("ch/g.py", OK)
    assert capture.main([], examples_dir) == 0
    gone.unlink()
    failing.write_text('# %%\nraise ValueError("no")\n')
    assert capture.main([], examples_dir) == 1
    failing.write_text('# %%\nprint("fixed, not yet captured")\n')  # the marker is now about an older version
    gpu_only.write_text('# /// example\n# requires = ["cuda"]\n# ///\n' + OK)
    capsys.readouterr()
    assert capture.main(["--prune"], examples_dir) == 0
    out = capsys.readouterr().out
    assert "gone/x/cpu.json: examples/gone/x.py does not exist" in out
    assert "ch/f/cpu.failed.json: failure marker of an older version" in out
    assert "ch/g/cpu.json: cpu record of an example that requires cuda" in out
    assert not (layout.store_dir(examples_dir) / "gone").exists()
    assert layout.record_path("ch/f.py", "cpu", examples_dir).exists(), "the last good record stays"
    assert capture.main(["--prune"], examples_dir) == 0 and "pruned" not in capsys.readouterr().out


def test_capture_writes_only_this_devices_record(write_example, examples_dir, cpu_here):
    path = write_example("ch/a.py", OK)
    ex = parse_example(path, examples_dir)
    gpu = layout.record_path("ch/a.py", "cuda", examples_dir)
    gpu.parent.mkdir(parents=True)
    gpu.write_text(json.dumps({
        "format": FORMAT, "example": "ch/a.py", "device_kind": "cuda", "key": ex.key, "source_sha256": ex.sha256,
        "provenance": {"device": "NVIDIA H100 80GB HBM3", "device_kind": "cuda", "torch": "2.11.0+cu130",
                       "cuda": "13.0", "python": "3.12.3", "platform": "Linux", "captured_at": "2026-11-23T00:00:00Z",
                       "duration_s": 1.0, "wall_s": 2.0, "driver": "580.65.06", "libraries": {}},
        "cells": [{"index": 0, "line": 2, "source": 'print("hello")', "metadata": {}, "key": ex.cells[0].key,
                   "duration_s": 0.1, "outputs": [{"type": "stream", "name": "stdout", "text": "hello\n"}]}]}))
    before = gpu.read_bytes()
    assert capture.main([], examples_dir) == 0  # a fresh GPU record does not make the CPU one fresh
    assert layout.record_path("ch/a.py", "cpu", examples_dir).exists()
    assert capture.main(["--force"], examples_dir) == 0
    path.write_text('# %%\nprint("hello")  # a comment does not make records stale\n')
    assert capture.main([], examples_dir) == 0
    path.write_text('# %%\nprint("changed")\n')
    assert capture.main([], examples_dir) == 0
    assert gpu.read_bytes() == before, "a CPU capture rewrote the GPU record"
    assert "changed" in layout.record_path("ch/a.py", "cpu", examples_dir).read_text()


def test_shards_split_every_example_once_balanced_by_duration():
    durations = {f"ch/e{i}.py": float(d) for i, d in enumerate([9, 8, 7, 6, 5, 4, 3, 2, 1, 1])}
    items = sorted(durations) + ["ch/new.py"]
    shards = [shard(items, durations, k, 3) for k in (1, 2, 3)]
    assert sorted(sum(shards, [])) == sorted(items)
    totals = [sum(durations.get(i, 4.0) for i in s) for s in shards]
    assert max(totals) - min(totals) <= 2.0, totals
    assert shard(items, durations, 2, 3) == shards[1], "the split is deterministic"
    assert parse_shard("2/3") == (2, 3)
    for bad in ("0/3", "4/3", "x", "1/0"):
        with pytest.raises(SelectionError):
            parse_shard(bad)


def test_shard_option_runs_only_its_examples(write_example, examples_dir, capsys, cpu_here):
    """Parallel shard jobs see the same store, so they agree on the split (``--list`` shows it)."""
    for n in range(4):
        write_example(f"ch/e{n}.py", OK)
    members = []
    for k in (1, 2):
        capture.main(["--list", "--shard", f"{k}/2"], examples_dir)
        members.append({ln.rsplit("/", 1)[-1] for ln in capsys.readouterr().out.splitlines() if "examples/" in ln})
    assert len(members[0]) == len(members[1]) == 2 and not members[0] & members[1]
    assert capture.main(["--shard", "1/2"], examples_dir) == 0
    ran = {ln.split(": ")[0].rsplit("/", 1)[-1] for ln in capsys.readouterr().out.splitlines() if ln.startswith("[")}
    assert ran == members[0]


def test_progress_is_plain_lines_outside_a_terminal(capsys):
    with make_progress(2) as progress:
        assert isinstance(progress, PlainProgress) and type(progress) is PlainProgress
        progress.started("examples/a/b.py")
        progress.finished("examples/a/b.py", "ok 1.0 s (CPU)")
    assert capsys.readouterr().out == "[1/2] examples/a/b.py: ok 1.0 s (CPU)\n"


def test_examples_that_require_cuda_run_first_and_alone(write_example, examples_dir):
    """The GPU chapter measures the GPU: nothing may run beside it (capture/run.py, run_all).

    Timed by events: each other example's run waits for a second one to run beside it (a barrier, which
    a capture running them one at a time would break); a GPU example's run waits for a run beside it to
    start, which ends the wait at once and is seen, for at most 0.05 s (a capture that keeps to the
    rule never starts one: only a bounded wait can show that nothing started)."""
    import threading
    from types import SimpleNamespace

    from pytorch_notes.capture.run import run_all

    cuda_header = '# /// example\n# requires = ["cuda"]\n# ///\n'
    todo = [parse_example(write_example(f"ch/{name}.py", (cuda_header if name.startswith("gpu") else "") + OK),
                          examples_dir)
            for name in ("a", "gpu1", "b", "gpu2", "c", "d")]
    lock = threading.Condition()
    running, timeline, beside_gpu = set(), [], []
    pair = threading.Barrier(2, timeout=10)

    class Runs:
        def run(self, ex):
            with lock:
                running.add(ex.rel)
                timeline.append((ex.rel, frozenset(running)))
                lock.notify_all()
                if ex.needs_cuda:
                    lock.wait_for(lambda: len(running) > 1, timeout=0.05)
                    beside_gpu.append(frozenset(running))
            if not ex.needs_cuda:
                pair.wait()  # until another runs beside it: the others share the jobs
            with lock:
                running.discard(ex.rel)
            return SimpleNamespace(status="cancelled", example=ex)

        def cancel_all(self):
            pass

    run_all(todo, 3, Runs(), examples_dir)
    names = [rel for rel, _ in timeline]
    assert names[:2] == ["ch/gpu1.py", "ch/gpu2.py"] and sorted(names[2:]) == ["ch/a.py", "ch/b.py", "ch/c.py",
                                                                                "ch/d.py"]
    assert all(beside == {rel} for rel, beside in timeline[:2]), timeline
    assert beside_gpu == [{"ch/gpu1.py"}, {"ch/gpu2.py"}], "a run started beside a GPU example"
    assert any(len(beside) > 1 for _, beside in timeline[2:]), "the others still share the jobs"
