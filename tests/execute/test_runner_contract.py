"""The runner contract (issue 13, point 5), one test per promise, with example fixtures inside the
repository (``tests/fixtures/runner/examples``): some bugs only show there (a line rewritten
before it is matched, a path of the repository in an output, a dirtied work tree)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest
from conftest import alive_with
from pytorch_notes.execute import provenance as prov
from pytorch_notes.execute import rundir, supervise
from pytorch_notes.execute.paths import PathScrubber
from pytorch_notes.execute.supervise import Supervisor, run_example
from pytorch_notes.parse import parse_example

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "runner" / "examples"


def run(rel: str, **kw):
    return run_example(parse_example(FIXTURES / rel, examples_dir=FIXTURES), **kw)


def texts(result, cell: int) -> list[tuple[str, str]]:
    return [(o["name"], o["text"]) for o in result.cells[cell].outputs if o["type"] == "stream"]


def line_of(rel: str, needle: str) -> int:
    lines = (FIXTURES / rel).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


# --- 1. the reported line is the line that raised --------------------------------------------

def test_exception_reports_the_line_that_raised_inside_the_repository():
    r = run("lines/raise_deep.py")
    assert r.status == "failed" and r.message == "ZeroDivisionError: division by zero"
    raised = line_of("lines/raise_deep.py", "ratio = a / b")
    assert r.error_line == raised, r.message
    assert r.location() == f"tests/fixtures/runner/examples/lines/raise_deep.py:{raised}"
    tb = r.cells[1].outputs[-1]["traceback"]
    assert f'File "tests/fixtures/runner/examples/lines/raise_deep.py", line {raised}, in divide' in tb
    assert str(ROOT) not in tb and "runner.py" not in tb


def test_system_exit_reports_its_line():
    r = run("lines/system_exit.py")
    assert r.status == "failed" and r.cells[0].outputs[-1]["ename"] == "SystemExit"
    assert r.error_line == line_of("lines/system_exit.py", "sys.exit(3)")
    assert texts(r, 0) == [("stdout", "before exit\n")]


def test_timeout_reports_the_line_running_when_time_ran_out():
    r = run("lines/sleep_timeout.py")
    assert r.status == "timeout", r.message
    line = line_of("lines/sleep_timeout.py", "time.sleep(1)")
    assert r.error_line == line and f"(line {line})" in r.message
    assert r.wall_s < 15


def test_timeout_line_comes_from_a_stack_dump_when_the_cell_ignores_the_interrupt():
    r = run("lines/ignores_sigint.py")
    assert r.status == "timeout", r.message
    assert r.error_line in {line_of("lines/ignores_sigint.py", "while time.monotonic()"),
                            line_of("lines/ignores_sigint.py", "time.sleep(0.05)")}, r.message
    assert r.wall_s < 15


# --- 2. like `python example.py` ---------------------------------------------------------------

def test_runs_like_python_example_py_in_a_scratch_directory():
    before = _git_status()
    # Our own stdin is a pipe that never answers: an example that inherited it would block.
    read_end, write_end = os.pipe()
    saved = os.dup(0)
    os.dup2(read_end, 0)
    try:
        r = run("script/like_python.py", timeout_s=10)
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read_end, write_end):
            os.close(fd)
    assert r.ok, (r.message, r.process_output)
    out = "".join(t for _, t in texts(r, 0))
    assert "pickled Point 3\n" in out, out
    assert "main is this module True __main__\n" in out
    assert "runner package loaded False\n" in out
    assert "argv True\n" in out
    assert texts(r, 1) == [("stdout", "never answered: stdin is closed\n")]  # the prompt, as python shows it
    assert r.cells[1].duration_s < 5
    assert texts(r, 2) == [("stdout", "cwd .\nwritten ./written.txt\n"
                                      "file tests/fixtures/runner/examples/script/like_python.py\n"
                                      "folder tests/fixtures/runner/examples/script\n")]
    stored = json.dumps([c.outputs for c in r.cells]) + r.process_output
    assert str(ROOT) not in stored and tempfile.gettempdir() + "/pn-run-" not in stored
    assert not (FIXTURES / "script" / "written.txt").exists() and not (ROOT / "written.txt").exists()
    assert _git_status() == before, "the example dirtied the repository"


def test_pickling_a_class_the_example_defines_works_with_torch():
    r = run("script/torch_pickle.py")
    assert r.ok, (r.message, r.cells and r.cells[-1].outputs)
    assert texts(r, 0) == [("stdout", "loaded Tiny 3\n")]
    # 6. provenance: the libraries it imports (torch has its own field), the driver on CUDA only
    p = r.provenance
    assert p["libraries"].get("numpy"), p
    assert "torch" not in p["libraries"] and p["torch"]
    assert (p["driver"] is None) if p["device_kind"] == "cpu" else p["driver"], p


def test_scrubber_rewrites_machine_paths():
    s = PathScrubber("/tmp/pn-run-x/work", "/tmp/pn-run-x/tmp", "/repo")
    assert s.text("at /tmp/pn-run-x/work/a.txt and '/tmp/pn-run-x/work'") == "at ./a.txt and '.'"
    assert s.text("/tmp/pn-run-x/tmp/tmpab/f") == "$TMPDIR/tmpab/f"
    assert s.text("/repo/examples/a.py:3: UserWarning") == "examples/a.py:3: UserWarning"
    assert s.text("/repo/.venv/lib/python3.11/site-packages/torch/nn/x.py:1") == "site-packages/torch/nn/x.py:1"
    assert s.text("/repository/x /repo") == "/repository/x ."
    assert s.text("a/repo/b") == "a/repo/b"


# --- 3. file-descriptor output ---------------------------------------------------------------

def test_fd_output_is_captured_in_order_and_in_its_cell():
    r = run("fds/interleave.py")
    assert r.ok, r.message
    assert texts(r, 0) == [("stdout", "one\ntwo\nthree\nfour\nfive\n")]
    assert texts(r, 1) == [("stderr", "to stderr\nfd 2\nchild stderr\n"), ("stdout", "six\n")]
    assert texts(r, 2) == [("stdout", "from a forked worker\nseven\n")]


# --- 4. the timeout bounds the example and all its descendants ------------------------------

def _children_env(tmp_path: Path, mode: str = "finish") -> dict:
    """What procs/leaves_children.py needs: a folder it may write (shared into the sandbox), a mode, and
    a token it puts into every command line (pids inside the sandbox are not this process's pids)."""
    return {"extra_env": {"PN_TEST_PID_DIR": str(tmp_path), "PN_TEST_MODE": mode,
                          "PN_TEST_TOKEN": f"pn-test-{uuid.uuid4().hex}"}, "shared": (tmp_path,)}




def test_descendants_are_killed_when_the_example_ends(tmp_path):
    kw = _children_env(tmp_path)
    t0 = time.monotonic()
    r = run("procs/leaves_children.py", **kw)
    assert r.ok, (r.message, r.process_output)
    assert texts(r, 1) == [("stdout", "done\n")]
    assert time.monotonic() - t0 < 30, "capture waited on an orphan"
    assert len((tmp_path / "pids").read_text().split()) == 4
    assert alive_with(kw["extra_env"]["PN_TEST_TOKEN"]) == []


@pytest.mark.parametrize("mode", ["bwrap", "supervised"])
def test_timeout_kills_every_descendant(tmp_path, mode):
    if mode == "bwrap" and not Supervisor(ROOT, kind="cpu").sandbox.bwrap:
        pytest.skip("bubblewrap cannot start here")
    kw = _children_env(tmp_path, "hang")
    r = run("procs/leaves_children.py", timeout_s=2, mode=mode, **kw)
    assert r.status == "timeout" and "cell 2" in r.message, r.message
    assert r.wall_s < 15
    assert alive_with(kw["extra_env"]["PN_TEST_TOKEN"]) == []
    assert not Path((tmp_path / "cwd").read_text()).parent.exists(), "pn-run directory left behind"


def test_dataloader_with_workers_finishes_without_a_false_timeout():
    r = run("procs/dataloader.py", timeout_s=30)
    assert r.ok, (r.status, r.message)
    assert texts(r, 0) == [("stdout", "total 2016.0\n")]
    assert texts(r, 1) == [("stdout", "first [0.0, 1.0, 2.0]\n")]
    assert r.wall_s < 25


# --- 5. Ctrl-C -------------------------------------------------------------------------------

def test_cancel_all_stops_runs_promptly_and_leaves_nothing(tmp_path):
    kw = _children_env(tmp_path, "hang")
    runs = Supervisor(FIXTURES.parent, **kw)
    example = parse_example(FIXTURES / "procs/leaves_children.py", examples_dir=FIXTURES)
    results = []
    worker = threading.Thread(target=lambda: results.append(runs.run(example, timeout_s=600)))
    worker.start()
    deadline = time.monotonic() + 60  # the example writes "hanging" in its last cell, with SIGINT and SIGTERM ignored
    while not (tmp_path / "hanging").exists() and worker.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (tmp_path / "hanging").exists(), f"the example did not reach its hanging cell: {results}"
    t0 = time.monotonic()
    runs.cancel_all()
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - t0 < 2.5
    (r,) = results
    assert r.status == "cancelled" and "cancelled" in r.message
    assert alive_with(kw["extra_env"]["PN_TEST_TOKEN"]) == []
    assert not Path((tmp_path / "cwd").read_text()).parent.exists(), "pn-run directory left behind"


def test_run_directories_of_a_killed_capture_are_swept():
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = Path(tempfile.mkdtemp(prefix="pn-run-"))
    (stale / "owner.pid").write_text(f"{dead.pid} {rundir.owner().split(' ', 1)[1]}")
    elsewhere = Path(tempfile.mkdtemp(prefix="pn-run-"))  # another container's run sharing /tmp
    (elsewhere / "owner.pid").write_text(f"{dead.pid} pid:[1]")
    (stale / "work").mkdir()
    try:
        run("lines/system_exit.py")
        assert not stale.exists() and elsewhere.exists()
    finally:
        shutil.rmtree(stale, ignore_errors=True)
        shutil.rmtree(elsewhere, ignore_errors=True)


def test_a_run_after_cancel_all_runs_normally():
    runs = Supervisor(FIXTURES.parent)
    runs.cancel_all()
    example = parse_example(FIXTURES / "lines/system_exit.py", examples_dir=FIXTURES)
    assert runs.run(example).status == "failed"


# --- 6. provenance -----------------------------------------------------------------------------

def test_imported_modules_are_found_statically():
    sources = ["import numpy as np\nimport os, json\nfrom sklearn.linear_model import LinearRegression",
               "def f():\n    import matplotlib.pyplot as plt\nfrom . import sibling\nfrom torch import nn",
               "this is not python"]
    assert prov.imported_modules(sources) == ["matplotlib", "numpy", "sklearn", "torch"]


def test_library_versions_map_modules_to_distributions():
    from importlib import metadata

    found = prov.library_versions(["numpy", "sklearn", "torch", "not_a_module_anywhere"])
    assert found["numpy"] == metadata.version("numpy")
    if "sklearn" in metadata.packages_distributions():
        assert found["scikit-learn"] == metadata.version("scikit-learn")
    assert "torch" not in found and "not_a_module_anywhere" not in found


@pytest.mark.parametrize(("text", "version"), [
    ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023\n"
     "GCC version:  gcc version 11.4.0 (Ubuntu 11.4.0-1ubuntu1~22.04)\n", "535.129.03"),
    ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  "
     "(dvs-builder@U16-I3-B03-4-3)  Tue Mar  5 22:15:33 UTC 2024\nGCC version:  gcc version 12.3.0\n", "550.54.15"),
    ("NVRM version: NVIDIA UNIX aarch64 Kernel Module  470.82  Fri Oct 22 2021\n", "470.82"),
    ("something else\n", None),
])
def test_driver_version_is_read_from_proc(text, version):
    assert prov.parse_nvidia_version(text) == version


def test_runs_report_the_device_this_process_sees_whatever_the_example_claims():
    """The parent owns the facts: the device fields come from its own probe, with or without torch in
    the example, and an example that makes torch claim a GPU changes nothing but fails the run."""
    host = supervise.host_device()
    assert host is not None and host["torch"], host
    for rel in ("script/like_python.py", "script/torch_pickle.py"):  # without torch, then with it
        r = run(rel)
        assert r.status == "ok", r.message
        assert {k: r.provenance[k] for k in prov.DEVICE_FIELDS} == host, rel
        assert r.device_kind == host["device_kind"] and r.provenance["isolation"]


def _git_status() -> str:
    """Changes under the fixtures (the whole tree may be in the middle of someone's edit)."""
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all", "--ignored", "--", str(FIXTURES)],
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout


def test_a_cpu_only_torch_is_described_without_importing_it_and_as_torch_itself_says(tmp_path, monkeypatch):
    """The capture probes the device once; a torch built without CUDA or ROCm is read from its version file
    (70 ms instead of importing torch, ~2 s): the same facts torch reports once imported."""
    import torch

    fast = prov.cpu_only_torch()
    if torch.version.cuda is None and torch.version.hip is None:
        assert fast == torch.__version__
        assert prov.device() == {"device": "CPU", "device_kind": "cpu", "driver": None, "torch": torch.__version__,
                                 "cuda": None}
    else:
        assert fast is None  # a build that may see a GPU is asked
    fake = tmp_path / "torch"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "version.py").write_text("__version__ = '2.11.0+cu130'\ncuda = '13.0'\nhip = None\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "torch")
    assert prov.cpu_only_torch() is None, "a CUDA build is never taken for a CPU one"
