"""``make verify-records`` (issue 42, item 1): which changes it selects, how it compares a committed
record with a re-run, the proof a CUDA record needs, one real sandboxed run of a fixture example in a
temporary git repository; and item 6: the GPU capture requires the sandbox."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from pytorch_notes import capture
from pytorch_notes.capture import attest, verify
from pytorch_notes.store import layout
from pytorch_notes.store.model import CellRecord, Error, Image, Provenance, Record, Stream

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
OK = '# %%\nprint("hello")\n\n# %% volatile=true\nprint("took 1.5 ms")\n'
PROV = Provenance(device="CPU", device_kind="cpu", torch="2.13.0+cpu", cuda=None, python="3.11.7",
                  platform="Linux-6.18-x86_64", captured_at="2026-11-25T18:19:18Z", duration_s=1.0, wall_s=2.0,
                  isolation="bwrap 0.8.0")


@pytest.fixture
def cpu_here(monkeypatch):
    monkeypatch.setattr("pytorch_notes.execute.supervise.this_device_kind", lambda: "cpu")


def record(*cells: tuple) -> Record:
    """A record of cells given as (outputs, metadata), the first on line 2, each 3 lines long."""
    return Record(format=2, example="ch/a.py", device_kind="cpu", key="k", source_sha256="s", provenance=PROV,
                  cells=tuple(CellRecord(index=i, line=2 + 3 * i, source="x", metadata=meta, key=f"c{i}",
                                         duration_s=0.1, outputs=tuple(outs))
                              for i, (outs, meta) in enumerate(cells)))


# --- comparing ---------------------------------------------------------------------------------------


def test_a_changed_output_text_fails_naming_example_cell_and_the_diff():
    old = record(([Stream("stdout", "loss 0.25\n")], {}), ([Stream("stdout", "x\n")], {}))
    new = record(([Stream("stdout", "loss 0.25\n")], {}), ([Stream("stdout", "y\n")], {}))
    assert verify.cell_problems(old, old, "examples/ch/a.py") == []
    (problem,) = verify.cell_problems(old, new, "examples/ch/a.py")
    assert problem.startswith("examples/ch/a.py:5: cell 2 (compared exactly)")
    assert "-[stdout] x" in problem and "+[stdout] y" in problem


def test_numbers_are_compared_exactly_outside_volatile_cells():
    """Two honest captures on one machine printed the same digits (CONTRIBUTING): no tolerance."""
    old = record(([Stream("stdout", "loss 0.2500\n")], {}))
    new = record(([Stream("stdout", "loss 0.2501\n")], {}))
    assert verify.cell_problems(old, new, "w")


def test_a_volatile_cell_is_compared_by_structure_only():
    vol = {"volatile": True}
    old = record(([Stream("stdout", "took 1.5 ms\n"), Image("image/png", "AAAA", 10, 10)], vol))
    timing = record(([Stream("stdout", "took 2.7 ms\n"), Image("image/png", "BBBB", 20, 20)], vol))
    assert verify.cell_problems(old, timing, "w") == []
    for changed in ([Stream("stderr", "took 1.5 ms\n"), Image("image/png", "AAAA", 10, 10)],
                    [Stream("stdout", "took 1.5 ms\n")]):
        assert verify.cell_problems(old, record((changed, vol)), "w"), changed


def test_figures_are_compared_by_their_bytes_and_size():
    old = record(([Image("image/png", "AAAA", 10, 10, alt="loss")], {}))
    for other in (Image("image/png", "AAAB", 10, 10, alt="loss"), Image("image/png", "AAAA", 11, 10, alt="loss"),
                  Image("image/png", "AAAA", 10, 10, alt="accuracy")):
        assert verify.cell_problems(old, record(([other], {})), "w"), other


def test_traceback_lines_count_from_their_cell_so_comments_above_do_not_fail():
    def err(line: int, evalue: str = "no") -> Error:
        tb = f'Traceback (most recent call last):\n  File "examples/ch/a.py", line {line}, in <module>\n'
        return Error("ValueError", evalue, tb + f"ValueError: {evalue}", line, expected=True)

    old = record(([err(3)], {"raises": "ValueError"}))
    shifted = dataclasses.replace(old, cells=(dataclasses.replace(old.cells[0], line=4,
                                                                  outputs=(err(5),)),))
    assert verify.cell_problems(old, shifted, "w") == []
    assert verify.cell_problems(old, record(([err(3, "yes")], {"raises": "ValueError"})), "w")
    assert verify.cell_problems(old, record(([err(4)], {"raises": "ValueError"})), "w"), "another line of the cell"


def test_cell_options_and_cell_count_must_be_the_examples():
    old = record(([Stream("stdout", "x\n")], {}))
    assert verify.cell_problems(old, record(([Stream("stdout", "x\n")], {"volatile": True})), "w")
    assert verify.cell_problems(old, record(([Stream("stdout", "x\n")], {"warns": "UserWarning"})), "w") == [], \
        "warns= describes the output and is not part of the key (parse.DESCRIPTIVE_CELL_KEYS)"
    assert "1 cell(s), the example 2" in verify.cell_problems(old, record(([], {}), ([], {})), "w")[0]


def test_a_cpu_record_needs_a_plausible_provenance():
    assert verify.implausible(PROV) == ""
    for change in ({"device": "NVIDIA H200"}, {"cuda": "13.0"}, {"isolation": ""}, {"isolation": "none"},
                   {"captured_at": "yesterday"}, {"torch": None}):
        assert verify.implausible(dataclasses.replace(PROV, **change)), change


# --- selecting -----------------------------------------------------------------------------------------


def test_selection_sorts_changes_into_runs_proofs_and_problems(write_example, examples_dir):
    for rel in ("ch/a.py", "ch/b.py", "ch/c.py"):
        write_example(rel, OK)
    for rel in ("ch/b/cpu.json", "ch/c/cuda.json", "ch/c/cuda.failed.json", "ch/b/notes.txt", "gone/x/cpu.json"):
        (examples_dir / "_outputs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (examples_dir / "_outputs" / rel).write_text("{}")
    changed = ["ch/a.py", "_outputs/ch/b/cpu.json", "_outputs/ch/c/cuda.json", "_outputs/ch/c/cuda.failed.json",
               "_outputs/ch/b/notes.txt", "_outputs/gone/x/cpu.json", "_outputs/ch/d/cuda.json"]
    chosen = verify.select(changed, examples_dir)
    assert chosen.examples == ["ch/a.py", "ch/b.py"]
    assert chosen.cuda == ["_outputs/ch/c/cuda.json", "_outputs/ch/c/cuda.failed.json"]
    assert chosen.removed == ["examples/_outputs/ch/d/cuda.json"], "a deleted record needs no proof"
    assert len(chosen.problems) == 2 and "notes.txt: not a file of the store" in chosen.problems[0]
    assert "examples/gone/x.py, which does not exist" in chosen.problems[1]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          check=True, capture_output=True, text=True, timeout=60).stdout


def test_changed_files_are_the_branch_and_the_working_tree_against_the_merge_base(tmp_path, write_example,
                                                                                 examples_dir):
    write_example("ch/a.py", OK)
    write_example("ch/b.py", OK)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "base")
    git(tmp_path, "checkout", "-qb", "pr")
    write_example("ch/a.py", OK + "# committed on the branch\n")
    git(tmp_path, "commit", "-qam", "pr")
    git(tmp_path, "checkout", "-q", "main")
    write_example("ch/c.py", OK)  # on main after the branch left: not the pull request's change
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "main moves on")
    git(tmp_path, "checkout", "-q", "pr")
    write_example("ch/b.py", OK + "# not committed yet\n")
    write_example("ch/d.py", OK)  # untracked
    merge_base, paths = verify.changed_files("main", examples_dir)
    assert paths == ["ch/a.py", "ch/b.py", "ch/d.py"] and len(merge_base) == 40
    for bad in ("nope", "--output=x"):
        with pytest.raises(verify.VerifyError, match="BASE="):
            verify.changed_files(bad, examples_dir)


# --- one real run, in a repository of its own ---------------------------------------------------------


def test_a_forged_record_fails_and_an_honest_recapture_passes(tmp_path, write_example, examples_dir, capsys,
                                                             cpu_here):
    """The issue's done-when, on a fixture: the branch changes one output text of the committed cpu.json
    (same key) and verify-records fails naming the example and the cell; a branch that only re-captures
    passes (new provenance and timings, the volatile cell's text changed by hand, same outputs)."""
    write_example("ch/a.py", OK)
    assert capture.main([], examples_dir) == 0
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "base")
    git(tmp_path, "checkout", "-qb", "pr")
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    doc = json.loads(path.read_text())
    doc["cells"][0]["outputs"][0]["text"] = "tensor(15.)\n"
    doc["cells"][1]["outputs"][0]["text"] = "took 9.9 ms\n"
    path.write_text(json.dumps(doc))
    git(tmp_path, "commit", "-qam", "forged")
    capsys.readouterr()
    assert verify.main(["--base", "main"], examples_dir) == 1
    out, err = capsys.readouterr()
    assert "1 example(s) to re-run" in out and "[1/1] " in out and "examples/ch/a.py: ok" in out
    assert "examples/ch/a.py:2: cell 1 (compared exactly)" in err and "-[stdout] tensor(15.)" in err
    assert "+[stdout] hello" in err and "cell 2" not in err, "the volatile cell's text is not compared"
    assert json.loads(path.read_text()) == doc, "the committed record is never overwritten"
    git(tmp_path, "checkout", "-q", "main", "--", str(path))
    assert capture.main(["--force"], examples_dir) == 0
    doc = json.loads(path.read_text())
    doc["cells"][1]["outputs"][0]["text"] = "took 9.9 ms\n"
    path.write_text(json.dumps(doc))
    git(tmp_path, "commit", "-qam", "re-captured")
    assert verify.main(["--base", "main"], examples_dir) == 0


# --- CUDA records ----------------------------------------------------------------------------------------


def test_a_changed_cuda_record_fails_without_the_capture_workflows_attestation(tmp_path, monkeypatch, examples_dir):
    record_file = examples_dir / "_outputs" / "ch" / "a" / "cuda.json"
    record_file.parent.mkdir(parents=True)
    record_file.write_text("{}")
    paths = ["_outputs/ch/a/cuda.json"]
    assert "only the capture workflow" in attest.cuda_problems(paths, "none", "o/r", examples_dir)[0]
    identity = "https://github.com/o/r/.github/workflows/capture.yml@refs/heads/main"
    fake = tmp_path / "bin" / "gh"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\n[ "$ATTESTED" = 1 ] && [ "$2" = verify ] && [ "$5" = o/r ] && '
                    f'[ "$7" = "{identity}" ] && [ "$8" = --deny-self-hosted-runners ] && exit 0\n'
                    'echo "no attestations found" >&2; exit 1\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("ATTESTED", "0")
    (problem,) = attest.cuda_problems(paths, "attestation", "o/r", examples_dir)
    assert "no attestations found" in problem and identity in problem
    monkeypatch.setenv("ATTESTED", "1")
    assert attest.cuda_problems(paths, "attestation", "o/r", examples_dir) == []
    assert attest.cuda_problems(paths, "attestation", "", examples_dir), "no repository, no proof"
    record_file.unlink()
    record_file.symlink_to(tmp_path / "bin" / "gh")
    assert "not a regular file" in attest.cuda_problems(paths, "attestation", "o/r", examples_dir)[0]


# --- the workflows ----------------------------------------------------------------------------------------


def load(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def test_pull_requests_verify_records_against_their_base():
    wf = load("test.yml")
    job = wf["jobs"]["verify-records"]
    assert job["if"] == "github.event_name == 'pull_request'" and "self-hosted" not in str(job["runs-on"])
    checkout = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0, "the merge base must be in the clone"
    runs = {s.get("name"): s for s in job["steps"] if "make verify-records" in s.get("run", "")}
    cpu, cuda = (next(s for s in runs.values() if f"--kind {k}" in s["run"]) for k in ("cpu", "cuda"))
    assert 'BASE="origin/$BASE_REF"' in cpu["run"] and "--isolation bwrap" in cpu["run"]
    assert cpu["env"]["BASE_REF"] == "${{ github.base_ref }}" and "GH_TOKEN" not in cpu.get("env", {})
    assert "--cuda-proof attestation" in cuda["run"] and cuda["env"]["GH_TOKEN"] == "${{ github.token }}"
    assert job["permissions"] == {"contents": "read", "attestations": "read"}


def test_the_capture_workflow_attests_the_records_it_proposes():
    pr = load("capture.yml")["jobs"]["pull-request"]
    uses = [s.get("uses", s.get("run", "")) for s in pr["steps"]]
    attest_at = next(i for i, u in enumerate(uses) if u.startswith("actions/attest-build-provenance@"))
    validate_at = next(i for i, u in enumerate(uses) if "scripts/validate_outputs.py" in u)
    open_at = next(i for i, u in enumerate(uses) if "create-pull-request@" in u)
    assert validate_at < attest_at < open_at
    assert pr["steps"][attest_at]["with"]["subject-path"] == "examples/_outputs/**/cuda*.json"
    assert pr["permissions"]["id-token"] == "write" and pr["permissions"]["attestations"] == "write"
    assert attest.CAPTURE_WORKFLOW == ".github/workflows/capture.yml" and attest.CAPTURE_REF == "refs/heads/main"


# --- item 6: the GPU capture requires the sandbox ---------------------------------------------------------


def test_the_gpu_capture_requires_the_sandbox():
    capture_job = load("capture.yml")["jobs"]["capture"]
    step = next(s for s in capture_job["steps"] if "scripts/capture.py" in s.get("run", ""))
    assert "--isolation bwrap" in step["run"] or (step.get("env") or {}).get("PYTORCH_NOTES_REQUIRE_SANDBOX") == "1"
    probe = next(s for s in capture_job["steps"] if "bwrap --ro-bind" in s.get("run", ""))
    assert "::warning" not in probe["run"] and "exit 1" in probe["run"], "no sandbox fails the job"


def test_isolation_bwrap_refuses_the_fallback(write_example, examples_dir, capsys, cpu_here, monkeypatch):
    monkeypatch.setattr("pytorch_notes.execute.sandbox.bwrap_status", lambda: (None, "bwrap is not installed"))
    write_example("ch/a.py", '# %%\nopen("ran", "w")\n')
    assert capture.main(["--isolation", "bwrap"], examples_dir) == 2
    out, err = capsys.readouterr()
    assert err == "capture: --isolation bwrap: bwrap is not installed\n", "one line, naming why"
    assert not layout.store_dir(examples_dir).exists() and "running" not in out
