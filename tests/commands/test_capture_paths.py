"""``make capture`` and the files of a hostile tree (issue 26, items 4 and 6): a linked example or a folder
named ``x.py`` is named without a traceback and never run, a linked store folder or a file where the store
needs a folder is refused and nothing is written outside the store. Each case is set up in a throw-away
tree and run through the real ``scripts/capture.py --examples-dir`` or its ``main`` in this process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OUTSIDE_SECRET as SECRET
from pytorch_notes.store import layout

ROOT = Path(__file__).resolve().parents[2]
OK = '# %%\nprint("hello")\n'


def capture(examples_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """The real ``make capture`` command, on ``examples_dir`` (a new process: it imports torch, ~2 s)."""
    return subprocess.run([sys.executable, "scripts/capture.py", "--examples-dir", str(examples_dir), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")})


def capture_here(examples_dir: Path, capsys, *args: str) -> subprocess.CompletedProcess:
    """``make capture``'s ``main`` in this process (the device probe is done once per worker): the same
    exit status and output as the command, and an exception would fail the test as a traceback would."""
    from pytorch_notes import capture as command

    capsys.readouterr()
    status = command.main(list(args), examples_dir)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, status, out, err)


# --- examples: the capture command -------------------------------------------------------------

@pytest.mark.parametrize("how", ["all", "named", "list"])
def test_capture_refuses_a_linked_example_and_never_runs_it(examples_dir, outside, how, capsys):
    link = examples_dir / "ch" / "leak.py"
    link.parent.mkdir()
    link.symlink_to(outside / "secret.py")
    args = {"all": [], "named": [str(link)], "list": ["--list"]}[how]
    proc = capture(examples_dir, *args) if how == "all" else capture_here(examples_dir, capsys, *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert f"{link}:1: resolves outside examples/ (-> {outside / 'secret.py'})" in out
    assert "Traceback" not in out and SECRET not in out
    if how == "list":
        assert "malformed" in proc.stdout and str(link) in proc.stdout
    assert not (outside / "ran.txt").exists(), "the file outside examples/ was run"
    assert not layout.example_dir("ch/leak.py", examples_dir).exists()


@pytest.mark.parametrize("args", [[], ["--list"]])
def test_capture_names_a_folder_called_x_py_without_a_traceback(examples_dir, args, capsys):
    (examples_dir / "ch" / "x.py").mkdir(parents=True)
    proc = capture_here(examples_dir, capsys, *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "Traceback" not in out, out
    assert f"{examples_dir}/ch/x.py:1: is a directory, not an example file" in out


# --- the store's folders, as the command meets them ----------------------------------------------

def test_capture_refuses_a_linked_store_folder_and_writes_nothing_outside(write_example, examples_dir, outside,
                                                                         capsys):
    write_example("ch/a.py", OK)
    store = layout.store_dir(examples_dir)
    store.mkdir()
    (store / "ch").symlink_to(outside, target_is_directory=True)
    before = sorted(outside.iterdir())
    proc = capture_here(examples_dir, capsys)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "_outputs/ch/a/cpu.json: refused: " in out and "_outputs/ch is a symbolic link (-> " in out, out
    assert sorted(outside.iterdir()) == before, "capture wrote outside the store"
    shutil.rmtree(store)  # now the store folder itself
    store.symlink_to(outside, target_is_directory=True)
    for args in ([], ["--force"], ["--prune"], ["--migrate"]):
        proc = capture_here(examples_dir, capsys, *args)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 1 and "_outputs: refused: it is a symbolic link (-> " in out, out
        assert sorted(outside.iterdir()) == before, f"capture {args} wrote outside the store"


def test_a_file_where_the_store_needs_a_folder_is_named(write_example, examples_dir, capsys):
    write_example("ch/a.py", OK)
    store = layout.store_dir(examples_dir)
    (store / "ch").mkdir(parents=True)
    (store / "ch" / "a").write_text("in the way")
    for args in ([], ["--force"], ["--list"]):
        proc = capture_here(examples_dir, capsys, *args)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 1 and "is a file where the store needs a folder" in out, (args, out)
