"""Stage 2, execute: the fallback without bubblewrap undoes what it detects (issue 42, item 4). Each test plays
the hostile example of the issue's review and checks that nothing it left behind is there for the next
reader: bytecode, a forged or changed file of the repository, files in ``/tmp`` and ``/dev/shm``; and that
signalling the capture cannot end it. What the build publishes of ``docs/`` is test_published.py's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from conftest import require_bwrap
from pytorch_notes.execute.supervise import Supervisor, run_example
from pytorch_notes.parse import parse_example

ROOT = Path(__file__).resolve().parents[2]


def run(write_example, examples_dir, source: str, rel: str = "ch/hostile.py", **kw):
    return run_example(parse_example(write_example(rel, source), examples_dir), **kw)


def stdout(result, cell: int = 0) -> str:
    return "".join(o["text"] for o in result.cells[cell].outputs if o["type"] == "stream")


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(root), *args],
                          check=True, capture_output=True, text=True).stdout


# --- bytecode and the example's environment ------------------------------------------------------------

def test_bytecode_the_example_plants_is_found_and_deleted(write_example, examples_dir, monkeypatch):
    """``.pyc`` files in a package's ``__pycache__`` and in the virtualenv's bytecode prefix: the next
    ``import`` would run them. The example is not told the prefix and writes no bytecode of its own."""
    root = examples_dir.parent
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(root / ".venv" / "pycache"))
    for folder in ("scripts/pkg/__pycache__", ".venv/pycache/usr/lib"):
        (root / folder).mkdir(parents=True)
    (root / "scripts/pkg/__pycache__/mod.cpython-311.pyc").write_bytes(b"the real bytecode")
    r = run(write_example, examples_dir, f'''
        # %%
        import os, sys
        print(os.environ.get("PYTHONPYCACHEPREFIX"), os.environ.get("PYTHONDONTWRITEBYTECODE"), sys.dont_write_bytecode)
        open({str(root / "scripts/pkg/__pycache__/mod.cpython-311.pyc")!r}, "wb").write(b"planted")
        open({str(root / ".venv/pycache/usr/lib/os.cpython-311.pyc")!r}, "wb").write(b"planted")
        ''', mode="supervised", own_user=False)  # as a contributor's own user: the writes happen
    assert stdout(r).startswith("None 1 True\n"), stdout(r)
    assert r.status == "failed", r.message
    assert "changed scripts/pkg/__pycache__/mod.cpython-311.pyc (deleted" in r.message, r.message
    assert "added .venv/pycache/usr/lib/os.cpython-311.pyc (deleted" in r.message, r.message
    assert not (root / "scripts/pkg/__pycache__/mod.cpython-311.pyc").exists()  # Python compiles it again
    assert not (root / ".venv/pycache/usr/lib/os.cpython-311.pyc").exists()


def test_the_prefix_outside_the_checkout_is_watched_for_its_capture(tmp_path, monkeypatch):
    from pytorch_notes.execute import repocheck
    from pytorch_notes.execute.paths import REPO_ROOT

    monkeypatch.setattr(sys, "pycache_prefix", str(tmp_path))
    assert repocheck.watched_folders(REPO_ROOT) == [REPO_ROOT, tmp_path]
    monkeypatch.setattr(sys, "pycache_prefix", str(REPO_ROOT / ".venv" / "pycache"))
    assert repocheck.watched_folders(REPO_ROOT) == [REPO_ROOT]


# --- a detected change is undone ----------------------------------------------------------------------

def test_changes_are_undone_from_git_and_from_the_copies_before_anything_reads_them(write_example, examples_dir):
    """In a git checkout: a clean tracked page edited and a record deleted come back from git's index, a
    file the contributor was editing (differs from the index) comes back as the contributor left it, an
    untracked draft too; a forged record is moved out; and the next run finds the repository as it was."""
    root = examples_dir.parent
    files = {"docs/zh/index.md": "the real page", "examples/_outputs/ch/ok/cpu.json": "{}",
             "docs/en/edited.md": "committed"}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    hostile = write_example("ch/hostile.py", '''
        # %%
        import os
        root = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
        for rel in ("docs/zh/index.md", "docs/en/edited.md", "docs/en/draft.md"):
            with open(os.path.join(root, rel), "w") as f:
                f.write("defaced")
        os.remove(os.path.join(root, "examples/_outputs/ch/ok/cpu.json"))
        os.makedirs(os.path.join(root, "examples/_outputs/other/victim"))
        with open(os.path.join(root, "examples/_outputs/other/victim/cpu.json"), "w") as f:
            f.write("{}")
        ''')
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    (root / "docs/en/edited.md").write_text("the contributor's unsaved work", encoding="utf-8")
    (root / "docs/en/draft.md").write_text("an untracked draft", encoding="utf-8")
    before = git(root, "status", "--porcelain")
    r = run_example(parse_example(hostile, examples_dir), mode="supervised", own_user=False)
    assert r.status == "failed" and "changed the repository" in r.message, r.message
    for line in ("changed docs/zh/index.md (put back as it was", "changed docs/en/edited.md (put back as it was",
                 "changed docs/en/draft.md (put back as it was", "removed examples/_outputs/ch/ok/cpu.json (put back",
                 "added examples/_outputs/other (moved to "):
        assert line in r.message, (line, r.message)
    assert {rel: (root / rel).read_text(encoding="utf-8") for rel in files} == \
        {**files, "docs/en/edited.md": "the contributor's unsaved work"}
    assert (root / "docs/en/draft.md").read_text(encoding="utf-8") == "an untracked draft"
    assert not (root / "examples/_outputs/other").exists()
    assert git(root, "status", "--porcelain") == before
    quarantine = Path(r.message.split("(moved to ", 1)[1].split(")", 1)[0])
    assert (quarantine / "victim" / "cpu.json").exists()  # kept, in case it was not the example's
    assert quarantine.parents[2].name.startswith("pn-quarantine-")
    shutil.rmtree(quarantine.parents[2])
    again = run(write_example, examples_dir, "# %%\nprint('fine')\n", rel="ch/next.py", mode="supervised",
                own_user=False)
    assert again.ok, again.message


def test_a_run_that_changes_nothing_copies_little_and_passes(write_example, examples_dir):
    from pytorch_notes.execute.undo import Backup

    (examples_dir.parent / "notes.md").write_text("x", encoding="utf-8")
    r = run(write_example, examples_dir, "# %%\nprint('fine')\n", mode="supervised")
    assert r.ok, r.message
    assert not Backup(examples_dir.parent).git  # outside git, the small tree is copied before each run


# --- /tmp, /dev/shm and the capture itself, as an unprivileged user ------------------------------------

DRIVER = '''
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from pytorch_notes.execute.supervise import Supervisor
from pytorch_notes.parse import parse_example
runs = Supervisor(Path(sys.argv[2]), kind="cpu", mode=sys.argv[3])
ex = parse_example(Path(sys.argv[2]) / "examples" / "ch" / "hostile.py", Path(sys.argv[2]) / "examples")
r = runs.run(ex)
out = "".join(o["text"] for c in r.cells for o in c.outputs if o["type"] == "stream")
print(json.dumps({"status": r.status, "message": r.message, "stdout": out, "isolation": runs.isolation,
                  "note": runs.sandbox.describe()}))
'''

HOSTILE = '''# %%
import os, signal, time
for where in ("/tmp", "/dev/shm"):
    with open(os.path.join(where, "{token}"), "w") as f:
        f.write("for the next example")
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError as exc:
    print("kill refused", type(exc).__name__)
time.sleep(0.5)
print("the capture is still there")
'''


@pytest.mark.parametrize("mode", ["bwrap", "supervised"])
def test_an_example_cannot_end_the_capture_nor_leave_files_in_tmp(mode):
    """The example signals its parent (``os.kill(os.getppid(), SIGKILL)``, which once ended ``make capture``
    and left its helpers running) and leaves files in ``/tmp`` and ``/dev/shm`` for the next example. Under
    bubblewrap its parent is the sandbox's first process, and its ``/tmp`` and ``/dev/shm`` are its own. In
    the fallback run by root it runs as a user of its own (a fresh uid: test_fallback_own_user.py): the kill is
    refused, its files are removed after the run (where the capture is not root, the capture's warning says what
    the fallback cannot stop)."""
    from pytorch_notes.execute.fallback import example_user

    if mode == "bwrap":
        require_bwrap()
    elif example_user([])[0] is None:
        note = Supervisor(Path(tempfile.gettempdir()), mode="supervised").sandbox.describe()
        assert "os.kill(os.getppid(), SIGKILL) ends it" in note and "/tmp and /dev/shm" in note, note
        pytest.skip("examples cannot run as a user of their own here: the warning says what the fallback cannot stop")
    token = f"pn-test-{uuid.uuid4().hex}"
    root = Path(tempfile.mkdtemp(prefix="pn-test-open-"))
    try:
        root.chmod(0o755)
        (root / "examples" / "ch").mkdir(parents=True)
        (root / "examples" / "ch" / "hostile.py").write_text(HOSTILE.format(token=token), encoding="utf-8")
        for path in (root / "examples", root / "examples" / "ch"):
            path.chmod(0o755)
        done = subprocess.run([sys.executable, "-c", DRIVER, str(ROOT / "scripts"), str(root), mode],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        assert done.returncode == 0, f"the capture died ({done.returncode}): {done.stderr[-2000:]}"
        result = json.loads(done.stdout.splitlines()[-1])
        assert result["status"] == "ok", result
        assert "the capture is still there" in result["stdout"], result
        if mode == "supervised":
            assert "kill refused PermissionError" in result["stdout"], result
            assert "run as a user of their own" in result["note"], result
        for where in ("/tmp", "/dev/shm"):
            assert not os.path.exists(os.path.join(where, token)), where
    finally:
        shutil.rmtree(root, ignore_errors=True)
        for where in ("/tmp", "/dev/shm"):
            Path(where, token).unlink(missing_ok=True)
