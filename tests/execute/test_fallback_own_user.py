"""Stage 2, execute: in the fallback run by root, each example runs as a user of its own (issue 42, item 4;
``execute/runas.py``), so what it leaves in ``/tmp``, ``/var/tmp`` and ``/dev/shm`` is removed after the run
and nothing another program made there at the same time is touched, even where the interpreter lives in a
folder other users cannot enter (this project's virtualenv under ``/root/.pyenv``). As the capture's own
user the example's ``TMPDIR``, ``TEMP`` and ``TMP`` are the run's, and the warning says what is left."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")

DRIVER = '''
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from pytorch_notes.execute.supervise import Supervisor
from pytorch_notes.parse import parse_example
runs = Supervisor(Path(sys.argv[2]), kind="cpu", mode="supervised")
ex = parse_example(Path(sys.argv[2]) / "examples" / "ch" / "hostile.py", Path(sys.argv[2]) / "examples")
results = [runs.run(ex) for _ in range(2)]
print(json.dumps({"runs": [{"status": r.status, "message": r.message,
                            "stdout": "".join(o["text"] for c in r.cells for o in c.outputs if o["type"] == "stream")}
                           for r in results], "note": runs.sandbox.describe()}))
'''

HOSTILE = '''# %%
import getpass, os, signal, time
print("uid", os.getuid(), os.getgid(), os.getgroups(), getpass.getuser())
print("same tmp", os.environ["TMPDIR"] == os.environ["TEMP"] == os.environ["TMP"])
for where in ("/tmp", "/var/tmp", "/dev/shm"):
    mine = os.path.join(where, "{token}")
    if os.path.exists(mine):
        print("the last run's file is there")
    with open(mine, "w") as f:
        f.write("for the next example")
os.makedirs("/tmp/{token}-dir/deep")
open("/tmp/{token}-dir/deep/f", "w").close()
open("/tmp/{token}-shared/mine", "w").close()
try:
    os.kill(os.getppid(), signal.SIGKILL)
except OSError as exc:
    print("kill refused", type(exc).__name__)
try:
    open("/tmp/{token}-others", "a")
except OSError as exc:
    print("write refused", type(exc).__name__)
time.sleep(0.5)  # the test makes another program's files meanwhile
print("the capture is still there")
'''


def _own_user_or_skip():
    from pytorch_notes.execute.fallback import example_user

    user, why = example_user([])
    if user is None:
        pytest.skip(f"examples cannot run as a user of their own here: {why}")
    return user


def _launcher_or_skip() -> tuple[int, tuple[str, ...]]:
    """(a fresh id, the capabilities it must keep to read this interpreter) where ``runas.command`` can run:
    root with ``setpriv``. Unlike ``_own_user_or_skip`` it does not ask the probe, so a launcher that the probe
    turns down fails these tests rather than skipping them."""
    from pytorch_notes.execute import runas
    from pytorch_notes.execute.fallback import READ_ALL, ExampleUser, can_read

    ident = runas.fresh_id() if os.geteuid() == 0 and runas.launcher() else None
    if ident is None:
        pytest.skip("the launcher needs root, setpriv and a free uid")
    return ident, () if can_read(Path(sys.executable), ExampleUser(ident, ident)) else (READ_ALL,)


def _others(token: str, stop: threading.Event) -> list[Path]:
    """Another program's files, made while the example runs (once its first file is there): one of root's,
    one of ``nobody``'s (65534), in each folder, changed since the run started and never the run's."""
    made = []
    while not os.path.exists(f"/tmp/{token}") and not stop.wait(0.02):
        pass
    for where in FOLDERS:
        for owner in (0, 65534):
            path = Path(where, f"{token}-other-{owner}")
            path.write_text("another program's", encoding="utf-8")
            os.chown(path, owner, owner)
            made.append(path)
    return made


def test_an_example_run_by_root_leaves_nothing_in_the_temporary_folders_and_takes_nothing_else():
    """The capture's own interpreter (here the virtualenv's, which only root can read): the example runs as a
    fresh uid, new for each run, cannot signal the capture or write root's files; its files and folder in
    ``/tmp``, ``/var/tmp``, ``/dev/shm`` and in a shared folder there are gone after each run (the second run
    does not find the first's), while root's and ``nobody``'s files made during the run stay."""
    _own_user_or_skip()
    token = f"pn-test-{uuid.uuid4().hex}"
    root = Path(tempfile.mkdtemp(prefix="pn-test-own-"))
    shared = Path(f"/tmp/{token}-shared")
    others: list[Path] = []
    stop = threading.Event()
    try:
        root.chmod(0o755)
        shared.mkdir(mode=0o1777)
        shared.chmod(0o1777)
        Path(f"/tmp/{token}-others").write_text("root's", encoding="utf-8")
        (root / "examples" / "ch").mkdir(parents=True)
        (root / "examples" / "ch" / "hostile.py").write_text(HOSTILE.format(token=token), encoding="utf-8")
        for path in (root / "examples", root / "examples" / "ch"):
            path.chmod(0o755)
        watcher = threading.Thread(target=lambda: others.extend(_others(token, stop)))
        watcher.start()
        done = subprocess.run([sys.executable, "-c", DRIVER, str(ROOT / "scripts"), str(root)], capture_output=True,
                              text=True, timeout=120, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        stop.set()
        watcher.join()
        assert done.returncode == 0, f"the capture died ({done.returncode}): {done.stderr[-2000:]}"
        result = json.loads(done.stdout.splitlines()[-1])
        assert "a user of their own" in result["note"], result["note"]
        uids = set()
        for run in result["runs"]:
            assert run["status"] == "ok", run
            out = run["stdout"]
            for line in ("same tmp True", "kill refused PermissionError", "write refused PermissionError",
                         "the capture is still there"):
                assert line in out, (line, out)
            assert "the last run's file is there" not in out, out
            uid, gid, groups, name = out.split("\n", 1)[0].split(" ", 4)[1:]
            assert int(uid) > 65535 and gid == uid and groups == "[]" and name == "pn-example", out
            uids.add(uid)
        assert len(uids) == 2, uids  # a uid of each run's own
        assert len(others) == 2 * len(FOLDERS), others
        for path in others:
            assert path.read_text(encoding="utf-8") == "another program's", path
        left = [p for p in (*(Path(w, token) for w in FOLDERS), Path(f"/tmp/{token}-dir"), shared / "mine")
                if os.path.lexists(p)]
        assert not left, left
        assert shared.is_dir() and Path(f"/tmp/{token}-others").read_text(encoding="utf-8") == "root's"
    finally:
        stop.set()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(f"/tmp/{token}-dir", ignore_errors=True)
        shutil.rmtree(shared, ignore_errors=True)
        for where in FOLDERS:
            for path in Path(where).glob(f"{token}*"):
                path.unlink(missing_ok=True)


def test_as_its_own_user_an_example_cannot_write_the_repository(write_example, examples_dir):
    """What the undo tests make happen as the capture's own user (``own_user=False``) is refused here."""
    from pytorch_notes.execute.supervise import run_example
    from pytorch_notes.parse import parse_example

    _own_user_or_skip()
    page = examples_dir.parent / "docs" / "index.md"
    page.parent.mkdir()
    page.write_text("the real page", encoding="utf-8")
    hostile = write_example("ch/hostile.py", f'''
        # %%
        import os
        for write in (lambda: open({str(page)!r}, "w").write("defaced"),
                      lambda: os.makedirs({str(examples_dir / "_outputs" / "ch")!r})):
            try:
                write()
            except OSError as exc:
                print("refused", type(exc).__name__)
        ''')
    r = run_example(parse_example(hostile, examples_dir), mode="supervised")
    assert r.ok, r.message
    assert "".join(o["text"] for o in r.cells[0].outputs) == "refused PermissionError\n" * 2
    assert page.read_text(encoding="utf-8") == "the real page" and not (examples_dir / "_outputs").exists()


SHOW = """import json, os, getpass, subprocess, sys
st = dict(line.split(':', 1) for line in open('/proc/self/status') if ':' in line)
tried = {}
for name, call in (('setuid', lambda: os.setuid(0)), ('seteuid', lambda: os.seteuid(0)),
                   ('setgid', lambda: os.setgid(0)), ('setgroups', lambda: os.setgroups([0]))):
    try:
        call()
        tried[name] = 'done'
    except PermissionError:
        tried[name] = 'refused'
print(json.dumps({'ids': [os.getresuid(), os.getresgid(), os.getgroups()], 'user': getpass.getuser(),
                  'caps': [st[k].strip() for k in ('CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb', 'NoNewPrivs')],
                  'tried': tried}))
if len(sys.argv) > 1:  # a program the example starts holds the same
    sys.stdout.flush()
    subprocess.run([sys.executable, '-c', sys.argv[1]], check=True)
"""


def test_the_launcher_keeps_no_power_but_the_one_asked_for():
    """``runas.command`` (``setpriv``): read from inside the launched program and from a program it starts,
    it is the fresh uid and gid (real, effective, saved), no groups, ``pn-example``, with ``no_new_privs``, no
    capability in any set (inheritable, permitted, effective, bounding, ambient) but the kept one, and cannot
    become root or join group 0 again; uid or gid 0 is refused before anything runs."""
    from pytorch_notes.execute import runas

    ident, _ = _launcher_or_skip()
    for keep, caps in (((), "0000000000000000"), (("dac_read_search",), "0000000000000004")):
        done = subprocess.run(runas.command(["/usr/bin/python3", "-c", SHOW, SHOW], ident, ident, keep),
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        for line in done.stdout.splitlines():  # the launched program, then the one it started
            seen = json.loads(line)
            assert seen["ids"] == [[ident] * 3, [ident] * 3, []] and seen["user"] == "pn-example", seen
            assert seen["caps"] == [caps] * 5 + ["1"], (keep, seen)
            assert set(seen["tried"].values()) == {"refused"}, seen
        assert len(done.stdout.splitlines()) == 2, done.stdout
    for uid, gid in ((0, ident), (ident, 0)):
        with pytest.raises(ValueError):
            runas.command(["/usr/bin/touch", "/tmp/pn-test-never"], uid, gid)


def test_the_probe_refuses_a_launcher_that_leaves_a_power(monkeypatch):
    """``runas.probe`` (once per capture) fails when the launched program could gain privileges again."""
    from pytorch_notes.execute import runas

    ident, keep = _launcher_or_skip()  # the interpreter may be in a folder only root can enter
    assert runas.probe(ident, ident, keep, ["/usr"]) == ""
    launch = runas.command
    monkeypatch.setattr(runas, "command", lambda *a, **k: [x for x in launch(*a, **k) if x != "--no-new-privs"])
    assert "NoNewPrivs 0" in runas.probe(ident, ident, keep, ["/usr"])
    monkeypatch.setattr(runas, "command", lambda *a, **k: [x.replace("=-all", "=+all") if x.startswith("--bounding")
                                                           else x for x in launch(*a, **k)])
    assert "capabilities left" in runas.probe(ident, ident, keep, ["/usr"])


def test_without_setpriv_the_example_runs_as_the_captures_user_and_the_warning_says_why(monkeypatch, tmp_path):
    from pytorch_notes.execute import fallback, runas

    monkeypatch.setattr(fallback.os, "geteuid", lambda: 0)
    monkeypatch.setattr(runas.shutil, "which", lambda name, *a, **k: None)
    user, why = fallback.example_user([])
    assert user is None and "setpriv (util-linux) is not installed" in why, why
    with pytest.raises(FileNotFoundError):
        runas.command(["/usr/bin/true"], 300000000, 300000000)
    root = tmp_path / "repo"
    root.mkdir()
    runs = fallback.Fallback(root)
    try:
        assert runs.user is None and runs.command(["/usr/bin/true"]) == ["/usr/bin/true"]
        assert "this capture's own user (setpriv (util-linux) is not installed" in runs.warning(), runs.warning()
    finally:
        runs.close()


def test_a_fresh_id_is_nobody_elses(monkeypatch):
    from pytorch_notes.execute import runas

    picks = iter([4242, 100000, 300000000])
    monkeypatch.setattr(runas, "ids_in_use", lambda: {4242})
    monkeypatch.setattr(runas, "_subordinate", lambda: [(100000, 165536)])
    monkeypatch.setattr(runas, "_spans", lambda path: [(0, 1 << 32)])

    class Pick:
        def choices(self, spans, weights):
            return spans

        def randrange(self, start, end):
            return next(picks)

    monkeypatch.setattr(runas.random, "SystemRandom", Pick)
    assert runas.fresh_id() == 300000000
    monkeypatch.setattr(runas, "_spans", lambda path: [(0, 65536)])  # a user namespace of 65536 ids
    assert runas.fresh_id() is None


def test_as_the_captures_own_user_the_temporary_folder_is_the_runs_and_the_warning_says_what_is_left(
        monkeypatch, tmp_path):
    from pytorch_notes.execute.fallback import Fallback
    from pytorch_notes.execute.sandbox import example_env

    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    note = Fallback(tmp_path).warning()
    assert "own user (the capture is not root" in note and "os.kill(os.getppid(), SIGKILL) ends it" in note, note
    assert "its TMPDIR is the run's" in note and "by name is left" in note, note
    env = example_env({"TMP": "/tmp", "TEMP": "/tmp"}, tmp_path / "h", tmp_path / "t", tmp_path / "m", ROOT)
    assert env["TMPDIR"] == env["TEMP"] == env["TMP"] == str(tmp_path / "t")
