"""Stage 2, execute: an example is code nobody reviewed yet. Each test plays a hostile example for real
(in bubblewrap, and in the supervised fallback where the defence applies there too) and checks what the
capture makes of it (issue 26, items 1-3 and 7)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from conftest import alive_with, require_bwrap
from pytorch_notes.execute.sandbox import Limits
from pytorch_notes.execute.supervise import Supervisor, host_device, run_example
from pytorch_notes.parse import parse_example
from pytorch_notes.store.layout import failure_path, record_path


def run(write_example, examples_dir, source: str, rel: str = "ch/hostile.py", **kw):
    return run_example(parse_example(write_example(rel, source), examples_dir), **kw)


def stdout(result, cell: int) -> str:
    return "".join(o["text"] for o in result.cells[cell].outputs if o["type"] == "stream")


def capture_here(examples_dir: Path, capsys, *args: str) -> subprocess.CompletedProcess:
    """``make capture``'s ``main`` in this process (its device probe, which imports torch, done once per
    worker), with what it printed; an exception would fail the test as a traceback fails the command."""
    from pytorch_notes import capture

    capsys.readouterr()
    status = capture.main(list(args), examples_dir)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, status, out, err)




# --- 1. the repository is read-only; records cannot be forged -------------------------------------

FORGER = '''
# %%
import os
os.chdir(os.path.dirname(__file__))
try:
    os.makedirs("../_outputs/other/victim", exist_ok=True)
    with open("../_outputs/other/victim/cpu.json", "w") as f:
        f.write("{}")
except OSError as exc:
    print(exc)
with open("../../docs/zh/index.md", "w") as f:
    f.write("defaced")
print("wrote both")
'''


def test_an_example_cannot_change_the_repository_or_forge_a_record(write_example, examples_dir, isolation):
    page = examples_dir.parent / "docs" / "zh" / "index.md"
    page.parent.mkdir(parents=True)
    page.write_text("the real page", encoding="utf-8")
    r = run(write_example, examples_dir, FORGER, mode=isolation, own_user=False)  # as a contributor's own user
    assert r.status == "failed", (r.status, r.message)
    if isolation == "bwrap":  # the examples are read-only; the rest of the checkout is not there at all
        assert "Read-only file system" in stdout(r, 0), r.cells[0].outputs
        assert "No such file or directory: '../../docs/zh/index.md'" in r.message, r.message
    else:  # without a sandbox the writes happen, and the capture fails naming every file, and undoes them
        assert "changed the repository" in r.message, r.message
        assert "changed docs/zh/index.md (put back as it was" in r.message, r.message
        assert "added examples/_outputs (moved to " in r.message, r.message
        shutil.rmtree(r.message.split("(moved to ", 1)[1].split(")", 1)[0].rsplit("/examples/", 1)[0])
    assert page.read_text(encoding="utf-8") == "the real page"
    assert not (examples_dir / "_outputs").exists()


# --- 1. no network, its own processes, an allow-listed environment ----------------------------------

def test_an_example_has_no_network(write_example, examples_dir):
    require_bwrap()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    try:
        r = run(write_example, examples_dir, f'''
            # %%
            import socket
            s = socket.socket()
            s.settimeout(5)
            print("connect", s.connect_ex(("127.0.0.1", {port})) != 0)
            print("interfaces", sorted(name for _, name in socket.if_nameindex()))
            ''', mode="bwrap")
    finally:
        listener.close()
    assert r.ok, r.message
    assert stdout(r, 0) == "connect True\ninterfaces ['lo']\n"


def test_every_process_of_an_example_ends_with_it_even_when_it_attacks_its_parent(write_example, examples_dir):
    """The example starts a daemon in its own session, tries to kill the process above it and then
    kills itself: nothing it started outlives the run (the sandbox's PID namespace)."""
    require_bwrap()
    token = f"pn-test-{uuid.uuid4().hex}"
    r = run(write_example, examples_dir, f'''
        # %%
        import os, signal, subprocess, sys, time
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "{token}"], start_new_session=True)
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(0.2)
        print("parent still there", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
        ''', mode="bwrap")
    assert r.status == "crashed" and "SIGKILL" in r.message, r.message
    assert alive_with(token) == []


def test_the_environment_is_an_allow_list_and_secret_values_are_scrubbed(write_example, examples_dir, isolation,
                                                                          monkeypatch, capsys):
    """The example never sees the capture's variables but an allow-list; a secret's value that reaches an
    output some other way (here a file it may read) is removed before anything is stored."""
    secret = f"not-a-token-{uuid.uuid4().hex}"
    (examples_dir / "leak.txt").write_text(secret, encoding="utf-8")  # an untracked file the example can read
    write_example("ch/env.py", '''
        # %%
        import os
        print(sorted(os.environ))
        print("home", os.environ["HOME"], "tmp", os.environ["TMPDIR"])
        print("found elsewhere:", open(os.path.join(os.path.dirname(__file__), "../leak.txt")).read())
        ''')
    for name, value in {"GITHUB_TOKEN": secret, "MY_SERVICE_PASSWORD": "hunter2-hunter2", "UNLISTED_THING": "x",
                        "OMP_NUM_THREADS": "1"}.items():
        monkeypatch.setenv(name, value)
    done = capture_here(examples_dir, capsys, "--isolation", isolation)
    assert done.returncode == 0, done.stdout + done.stderr
    text = record_path("ch/env.py", "cpu", examples_dir).read_text(encoding="utf-8")
    assert secret not in text and "[secret removed]" in text
    for name in ("GITHUB_TOKEN", "MY_SERVICE_PASSWORD", "UNLISTED_THING", "PWD_OF_NOBODY"):
        assert name not in text, name
    assert "OMP_NUM_THREADS" in text and "'MPLBACKEND'" in text
    assert "home ~ tmp $TMPDIR" in text
    assert json.loads(text)["provenance"]["isolation"].startswith("bwrap" if isolation == "bwrap" else "supervised")


def test_only_what_a_run_needs_is_visible(write_example, examples_dir):
    """Of the checkout, the example sees its examples folder, nothing else: not ``.git`` (where CI keeps a
    token), nor untracked secrets (``.env``, notes), ``site/`` or ``.cache/``; of the checkout that holds the
    capture (the virtualenv may be in it), the virtualenv and the runner's folder only. Nor the shadow files."""
    require_bwrap()
    from pytorch_notes.execute.paths import REPO_ROOT

    root = examples_dir.parent
    for name, text in {".git/config": "extraheader = AUTHORIZATION: basic c2VjcmV0\n", ".env": "API=c2VjcmV0\n",
                       "notes.txt": "c2VjcmV0", "site/index.html": "c2VjcmV0", ".cache/x": "c2VjcmV0"}.items():
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_text(text)
    r = run(write_example, examples_dir, f'''
        # %%
        import os
        root = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
        print("root", sorted(os.listdir(root)))
        print("checkout", sorted(os.listdir({str(REPO_ROOT)!r})))
        print("scripts", sorted(os.listdir({str(REPO_ROOT / "scripts")!r})))
        try:
            print("shadow", repr(open("/etc/shadow").read()))
        except OSError as exc:
            print("shadow", type(exc).__name__)
        print("home", sorted(os.listdir(os.path.expanduser("~"))))
        ''', mode="bwrap")
    assert r.ok, r.message
    out = stdout(r, 0)
    assert "root ['examples']\n" in out and "c2VjcmV0" not in out, out
    venv = [".venv"] if Path(sys.prefix).resolve().is_relative_to(REPO_ROOT) else []
    assert f"checkout {sorted([*venv, 'scripts'])}\n" in out and "scripts ['pytorch_notes']\n" in out, out
    assert any(f"shadow {what}\n" in out for what in ("''", "PermissionError", "FileNotFoundError")), out
    assert "home []\n" in out


def test_limits_and_the_out_of_memory_preference_apply_to_the_example(write_example, examples_dir, isolation):
    limits = Limits(memory_bytes=3 << 30, file_bytes=1 << 20, processes=4096, oom_score_adj=1000)
    r = run(write_example, examples_dir, '''
        # %%
        import resource
        print("oom", open("/proc/self/oom_score_adj").read().strip())
        print("as", resource.getrlimit(resource.RLIMIT_AS))
        print("fsize", resource.getrlimit(resource.RLIMIT_FSIZE))
        # %% raises="MemoryError"
        hog = bytearray(4 << 30)
        # %% raises="OSError"
        with open("big.bin", "wb") as f:
            f.write(b"x" * (2 << 20))
        ''', mode=isolation, limits=limits)
    assert r.ok, r.message
    assert stdout(r, 0) == f"oom 1000\nas ({3 << 30}, {3 << 30})\nfsize ({1 << 20}, {1 << 20})\n"
    assert "File too large" in r.cells[2].outputs[-1]["evalue"]


# --- 2. the capture owns the facts -------------------------------------------------------------------

# What a forging example does first: find the runner's results channel among its file descriptors.
FIND_RESULTS_FD = '''
def target(n):
    try:
        return os.readlink(f"/proc/self/fd/{n}")
    except OSError:
        return ""
fd = next(int(n) for n in os.listdir("/proc/self/fd") if target(n).endswith("/results"))
'''

LIAR = '''
# %%
import json
real = json.dumps
json.dumps = lambda obj, *a, **k: real(obj, *a, **k).replace('"ok": false', '"ok": true').replace('"cpu"', '"cuda"')
print("I am a GPU")
# %%
raise RuntimeError("this cell fails")
'''
GPU_CLAIM = '''
# %%
import sys, types
# a stand-in for torch, as an example could make the real one say (importing torch costs seconds)
sys.modules["torch"] = types.SimpleNamespace(cuda=types.SimpleNamespace(
    is_available=lambda: True, get_device_name=lambda *a: "NVIDIA H100 80GB HBM3"))
print("I am a GPU")
'''


def test_an_example_decides_neither_its_device_nor_its_result(write_example, examples_dir, monkeypatch):
    """One example rewrites ``json.dumps`` to turn its failure into a success on CUDA, another makes torch
    claim a GPU: the capture stores a CPU failure marker for each (its own probe, its own checks)."""
    monkeypatch.setattr("pytorch_notes.execute.supervise.this_device_kind", lambda: "cpu")
    write_example("ch/liar.py", LIAR)
    write_example("ch/claim.py", GPU_CLAIM)
    from pytorch_notes import capture

    assert capture.main([], examples_dir) == 1
    for rel, why in (("ch/liar.py", "RuntimeError: this cell fails"), ("ch/claim.py", "saw a GPU")):
        assert not record_path(rel, "cuda", examples_dir).exists()
        assert not record_path(rel, "cpu", examples_dir).exists()
        assert not failure_path(rel, "cuda", examples_dir).exists()
        marker = json.loads(failure_path(rel, "cpu", examples_dir).read_text(encoding="utf-8"))
        assert marker["device_kind"] == "cpu" and marker["provenance"]["device"] == "CPU"
        assert marker["status"] == "failed" and why in marker["message"], marker


def test_a_report_that_contradicts_the_example_fails_only_that_example(write_example, examples_dir):
    """The example finds the results channel and writes well-formed forged cell and end records into it,
    then leaves with status 0 through ``os._exit``, which the runner's own version reports after the end:
    the report contradicts itself, and the forged outputs are stored nowhere."""
    write_example("ch/forger.py", "# %%\nimport json, os\n" + FIND_RESULTS_FD + '''
for rec in ({"kind": "cell", "index": 0, "line": 2, "ok": True, "duration_s": 0.1,
             "outputs": [{"type": "stream", "name": "stdout", "text": "forged"}]},
            {"kind": "cell", "index": 1, "line": 9, "ok": True, "duration_s": 0.1, "outputs": []},
            {"kind": "end", "ok": True, "duration_s": 0.2}):
    os.write(fd, (json.dumps(rec) + "\\n").encode())
os._exit(0)
# %%
print("never runs")
''')
    write_example("ch/honest.py", '# %%\nprint("fine")\n')
    from pytorch_notes import capture

    assert capture.main([], examples_dir) == 1
    assert record_path("ch/honest.py", "cpu", examples_dir).exists()
    assert not record_path("ch/forger.py", "cpu", examples_dir).exists()
    marker = json.loads(failure_path("ch/forger.py", "cpu", examples_dir).read_text(encoding="utf-8"))
    assert "cannot be trusted" in marker["message"], marker


def test_a_malformed_report_is_that_examples_failure(write_example, examples_dir):
    """A report the record format rejects, past every other check, is stored as a failure naming the field."""
    from pytorch_notes.capture.run import store_result
    from pytorch_notes.execute.supervise import CellResult, RunResult

    ex = parse_example(write_example("ch/x.py", "# %%\nprint(1)\n"), examples_dir)
    result = RunResult(ex, "ok", [CellResult(0, 2, True, 0.1, [{"type": "stream", "name": "stdout", "text": 5}])],
                       0.1, 0.2, captured_at="2026-11-25T00:00:00Z", provenance={"python": "3.11", "platform": "L"})
    stored = store_result(result, examples_dir)
    assert stored.summary == "FAILED (failed)" and "cells[0].outputs[0].text" in stored.failure, stored
    assert failure_path("ch/x.py", "cpu", examples_dir).exists()
    assert not record_path("ch/x.py", "cpu", examples_dir).exists()


def test_provenance_is_the_capture_probe_and_names_the_isolation(write_example, examples_dir, isolation):
    r = run(write_example, examples_dir, "# %%\nprint('no torch here')\n", mode=isolation)
    assert r.ok, r.message
    host = host_device()
    assert {k: r.provenance[k] for k in ("device", "device_kind", "torch", "cuda")} == \
        {k: host[k] for k in ("device", "device_kind", "torch", "cuda")}
    assert r.provenance["isolation"] == Supervisor(examples_dir.parent, mode=isolation).isolation


# --- 7. crash reports name the signal and the line ------------------------------------------------

def test_a_segfault_names_the_signal_the_line_and_keeps_what_was_printed(write_example, examples_dir, isolation):
    r = run(write_example, examples_dir, '''
        # %%
        print("warming up")
        # %%
        import ctypes
        print("about to crash", flush=True)
        ctypes.string_at(0)
        ''', mode=isolation)
    assert r.status == "crashed", r.message
    assert "SIGSEGV (segmentation fault) in cell 2 (line 6)" in r.message and r.error_line == 6, r.message
    assert "about to crash" in r.message and "warming up" not in r.message


def test_os_exit_names_the_line_that_called_it(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %%
        import os

        def leave():
            os._exit(7)

        print("leaving")
        leave()
        ''')
    assert r.status == "crashed" and r.error_line == 5, r.message
    assert "os._exit(7) in cell 1 (line 5)" in r.message and "leaving" in r.message


def test_a_killed_process_names_sigkill_and_the_line_that_was_running(write_example, examples_dir, isolation):
    """What the out-of-memory killer does, played by a timer: SIGKILL while a known line runs."""
    r = run(write_example, examples_dir, '''
        # %%
        import os, signal, threading, time
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGKILL)).start()
        print("waiting", flush=True)
        time.sleep(30)
        ''', mode=isolation)
    assert r.status == "crashed", r.message
    assert "SIGKILL (killed; the kernel's out-of-memory killer does this" in r.message, r.message
    assert r.error_line == 5 and "waiting" in r.message, r.message


def test_a_timeout_in_a_deep_recursion_names_the_running_line(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %%
        import sys
        sys.setrecursionlimit(20000)

        def dive(n):
            if n:
                return dive(n - 1)
            while True:
                pass

        dive(5000)
        ''', timeout_s=1)
    assert r.status == "timeout" and r.error_line in (8, 9), (r.error_line, r.message)  # the loop, not line 2 or 11


def test_failure_messages_reach_the_terminal_inert(write_example, examples_dir, capsys):
    """An exception message with a screen clear, a title change, BEL and a bidi override: neither the
    capture's terminal nor the failure marker gets any of them; a forged marker that holds them anyway
    is shown by ``--list`` with the characters made visible."""
    write_example("ch/ansi.py", '# %%\nraise ValueError("\\x1b[2J\\x1b]0;pwned\\x07 fine \\u202e txt")\n')
    done = capture_here(examples_dir, capsys)
    assert done.returncode == 1
    for stream in (done.stdout, done.stderr):
        assert "\x1b" not in stream and "\x07" not in stream and "\u202e" not in stream
    assert "ValueError:  fine ⟨U+202E⟩ txt" in done.stderr, done.stderr  # shown, not obeyed (characters.py)
    marker_path = failure_path("ch/ansi.py", "cpu", examples_dir)
    marker = json.loads(marker_path.read_text(encoding="utf-8"))
    assert marker["message"] == "ValueError:  fine ⟨U+202E⟩ txt", marker
    marker["message"] = "forged \x1b[2K\x1b]0;title\x07 \u202e end"
    marker_path.write_text(json.dumps(marker), encoding="utf-8")
    listed = capture_here(examples_dir, capsys, "--list")
    for stream in (listed.stdout, listed.stderr):
        assert "\x1b" not in stream and "\x07" not in stream and "\u202e" not in stream
    assert "forged \\x1b[2K\\x1b]0;title\\x07 \\u202e end" in listed.stderr, listed.stderr


def test_signals_are_told_apart_from_exit_statuses():
    from pytorch_notes.execute.outcome import death_signal, signal_words

    assert death_signal(-signal.SIGSEGV, sandboxed=False) == signal.SIGSEGV
    assert death_signal(128 + signal.SIGKILL, sandboxed=True) == signal.SIGKILL
    assert death_signal(128 + signal.SIGKILL, sandboxed=False) is None  # a plain exit status
    assert death_signal(3, sandboxed=True) is None
    assert signal_words(signal.SIGBUS) == "SIGBUS (bus error)"


@pytest.mark.parametrize("kind", ["cpu", "cuda"])
def test_default_limits_bound_memory_on_the_cpu_only(kind):
    from pytorch_notes.execute.sandbox import default_limits

    limits = default_limits(kind)
    assert (limits.memory_bytes is not None) == (kind == "cpu")  # CUDA reserves far more address space
    assert limits.oom_score_adj == 1000 and limits.file_bytes and limits.processes


# --- what a hostile contributor tried next (the audit of 2026-11-25) -----------------------------

def test_the_kernels_settings_are_read_only(write_example, examples_dir):
    """As root without capabilities, /proc/sys is writable unless mounted read-only, and core_pattern alone
    runs a program of the example's as root outside the sandbox. The example writes back the value it
    read, so the host is unchanged even where the defence is missing."""
    require_bwrap()
    r = run(write_example, examples_dir, '''
        # %%
        for path in ("/proc/sys/vm/swappiness", "/proc/sys/kernel/core_pattern"):
            value = open(path).read()
            try:
                with open(path, "w") as f:
                    f.write(value)
                print(path, "written")
            except OSError as exc:
                print(path, type(exc).__name__, exc.errno)
        ''', mode="bwrap")
    assert r.ok, r.message
    assert stdout(r, 0) == "/proc/sys/vm/swappiness OSError 30\n/proc/sys/kernel/core_pattern OSError 30\n"


def test_etc_shows_an_allow_list(write_example, examples_dir):
    from pytorch_notes.execute.sandbox import ETC_ALLOWED

    require_bwrap()
    hidden = sorted(n for n in os.listdir("/etc") if n not in ETC_ALLOWED and os.path.isfile(f"/etc/{n}"))[:20]
    r = run(write_example, examples_dir, f'''
        # %%
        import os
        print([n for n in {hidden!r} if os.path.exists("/etc/" + n)])
        print(os.path.exists("/etc/passwd"), os.path.exists("/etc/ld.so.cache"))
        ''', mode="bwrap")
    assert r.ok and hidden, r.message
    assert stdout(r, 0) == "[]\nTrue True\n"


def test_tmp_and_shared_memory_are_bounded_and_so_is_the_disk(write_example, examples_dir, isolation):
    limits = Limits(tmpfs_bytes=8 << 20, disk_bytes=24 << 20)
    r = run(write_example, examples_dir, '''
        # %%
        import os
        for where in ("/tmp", "/dev/shm"):
            try:
                with open(os.path.join(where, "fill"), "wb") as f:
                    f.write(b"x" * (16 << 20))
                print(where, "took 16 MiB")
            except OSError as exc:
                print(where, "refused", exc.errno)
        # %%
        import time
        for i in range(120):  # far past the 24 MiB, so that other disk activity of the machine cannot hide it
            with open(f"chunk{i}", "wb") as f:
                f.write(b"x" * (1 << 20))
            time.sleep(0.02)
        print("wrote 120 MiB")
        ''', mode=isolation, limits=limits)
    assert r.status == "failed" and "wrote more than" in r.message and "GiB to the disk" in r.message, r.message
    if isolation == "bwrap":
        assert stdout(r, 0) == "/tmp refused 28\n/dev/shm refused 28\n"


def test_a_daemon_that_leaves_the_session_dies_with_its_run_without_a_sandbox_too(write_example, examples_dir,
                                                                                  isolation):
    token = f"pn-test-{uuid.uuid4().hex}"
    r = run(write_example, examples_dir, f'''
        # %%
        import os, subprocess, sys
        if os.fork() == 0:
            os.setsid()
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "{token}"])
            os._exit(0)
        import time
        time.sleep(0.5)
        print("leaving", flush=True)
        os._exit(0)
        ''', mode=isolation)
    assert r.status == "crashed" and "os._exit(0)" in r.message, r.message
    assert alive_with(token) == []


def test_an_in_place_edit_that_restores_the_modification_time_is_still_seen(write_example, examples_dir):
    victim = write_example("ch/victim.py", "# %%\nprint('the reviewed code')\n")
    r = run(write_example, examples_dir, f'''
        # %%
        import os
        st = os.stat({str(victim)!r})
        with open({str(victim)!r}, "r+") as f:
            f.write("# %%\\nprint('the forged code!!')\\n"[:st.st_size])
        os.utime({str(victim)!r}, ns=(st.st_atime_ns, st.st_mtime_ns))
        ''', mode="supervised", own_user=False)
    assert r.status == "failed" and "changed examples/ch/victim.py (put back as it was" in r.message, r.message
    assert victim.read_text(encoding="utf-8") == "# %%\nprint('the reviewed code')\n"
    shutil.rmtree(r.message.split("the changed file is in ", 1)[1].rsplit("/examples/", 1)[0])


def test_an_example_that_replaces_exec_cannot_turn_a_failing_cell_into_a_success(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %%
        import builtins
        real_exec = builtins.exec
        def forgiving(code, *args):
            try:
                real_exec(code, *args)
            except Exception:
                print("loss: 0.0012")
        builtins.exec = forgiving
        # %%
        result = 1 / 0
        ''')
    assert r.status == "failed" and "ZeroDivisionError" in r.message, r.message


def test_a_worktree_or_submodule_checkout_is_sandboxed_too(write_example, examples_dir):
    """There ``.git`` is a file naming the real repository; it is not there, as nothing of the checkout is."""
    require_bwrap()
    (examples_dir.parent / ".git").write_text("gitdir: /somewhere/else/.git/worktrees/x\n")
    r = run(write_example, examples_dir, '''
        # %%
        import os
        try:
            print(repr(open(os.path.join(os.path.dirname(__file__), "../../.git")).read()))
        except OSError as exc:
            print(type(exc).__name__)
        ''', mode="bwrap")
    assert r.ok, r.message
    assert stdout(r, 0) == "FileNotFoundError\n", stdout(r, 0)


@pytest.mark.parametrize("forged", [
    '{"kind": "end", "ok": true, "duration_s": 1' + "0" * 400 + "}",
    '{"kind": "cell", "index": -9, "line": 2, "ok": false, "duration_s": 0.1, "outputs": []}',
    '{"kind": "end", "ok": true, "duration_s": NaN}',
    "[" * 100_000 + "]" * 100_000,
])
def test_forged_report_lines_fail_the_run_and_never_the_capture(write_example, examples_dir, forged):
    r = run(write_example, examples_dir, "# %%\nimport os\n" + FIND_RESULTS_FD +
            f'os.write(fd, {forged!r}.encode() + b"\\n")\nprint("forged")\n')
    assert r.status == "failed" and "cannot be trusted" in r.message, r.message


@pytest.mark.parametrize(("line", "why"), [
    ('{"kind": "cell", "index": -9, "line": 2, "ok": true, "duration_s": 0.1, "outputs": []}', "integer index"),
    ('{"kind": "cell", "index": 0, "line": 2, "ok": true, "duration_s": 1e400, "outputs": []}', "duration"),
    ('{"kind": "end", "ok": true, "duration_s": NaN}', "malformed record"),
    ('{"kind": "start", "index": 0, "offsets": [-1, 0]}', "malformed record"),
    ('{"kind": "exit", "status": 1' + "0" * 400 + ', "line": 3}', "malformed record"),
])
def test_numbers_no_run_reports_are_refused_by_the_reader(tmp_path, line, why):
    from pytorch_notes.execute.outcome import read_report

    path = tmp_path / "results"
    path.write_text(line + "\n", encoding="utf-8")
    report = read_report(path)
    assert not report.cells and report.end is None and report.exit is None and not report.starts
    assert len(report.problems) == 1 and why in report.problems[0], report.problems


def test_a_flooded_position_channel_is_read_within_bounds(tmp_path):
    import tracemalloc

    from pytorch_notes.execute.outcome import read_position

    flood = tmp_path / "position"
    flood.write_bytes(b"x" * 40_000_000)  # read whole, as it once was, it took 40 MB of the capture's memory
    tracemalloc.start()
    try:
        assert read_position(flood) is None
        assert tracemalloc.get_traced_memory()[1] < 1_000_000
    finally:
        tracemalloc.stop()
    flood.write_bytes(b"3 17\n" + b" " * 10_000_000)
    assert read_position(flood) == (3, 17)


def test_a_scratch_tree_thousands_of_folders_deep_is_removed(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %%
        import os
        for _ in range(2000):
            os.mkdir("d")
            os.chdir("d")
        print("deep")
        ''')
    assert r.ok, r.message
    from pytorch_notes.execute import rundir

    assert not [d for d in Path(rundir.tempfile.gettempdir()).glob("pn-run-*")
                if (d / "owner.pid").exists() and (d / "owner.pid").read_text().split()[0] == str(os.getpid())]
