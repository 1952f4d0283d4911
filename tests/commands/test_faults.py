"""Faults a contributor or a machine can cause during capture, and what each one produces.

Each test sets up the fault for real (a killed process, two captures at once, a hanging example)
and checks that nothing is lost and the message names the file (and line where there is one).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import alive_with, opened_plugin
from pytorch_notes import capture
from pytorch_notes.store.layout import failure_path, record_path

CAPTURE = Path(__file__).resolve().parents[2] / "scripts" / "capture.py"


def _as_a_foreground_job() -> None:
    """In the child before it runs: SIGINT back to its default. A job started in the background by a
    shell without job control (``(make test &)``, a CI runner's wrapper) inherits SIGINT ignored, and
    Python then never turns it into KeyboardInterrupt: Ctrl-C reaches only foreground jobs anyway."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _capture_cli(examples_dir: Path, *args: str, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(CAPTURE), "--examples-dir", str(examples_dir), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=_as_a_foreground_job, **popen)


def _wait_for(predicate, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.05)


def _all_store_files_are_whole(examples_dir: Path) -> list[Path]:
    files = sorted((examples_dir / "_outputs").rglob("*.json"))
    for f in files:
        json.loads(f.read_text(encoding="utf-8"))  # raises on a partial file
    return files


# --- killed capture -----------------------------------------------------------------------

def _slow(flag: Path) -> str:
    """An example that says it started, then sleeps while ``flag`` exists. It reads the flag rather than
    an environment variable: the sandbox passes an allow-list of variables and no writable folder."""
    return f'''
# %%
import os, time
print("slow started", flush=True)
if os.path.exists({str(flag)!r}):
    time.sleep(120)
print("slow finished")
'''


def _started(tmp: Path) -> bool:
    """Whether the slow example runs: its run folder (under the capture's TMPDIR ``tmp``) has its output."""
    return any("slow started" in f.read_text(errors="replace") for f in tmp.glob("pn-run-*/stdout"))


def _fast_done_slow_running(write_example, examples_dir: Path, tmp_path: Path, *args: str):
    """A real ``capture.py`` (``args`` added) on a fast and a slow example, once the fast one's record is written
    and the slow one runs: (the capture's process, the flag the slow one waits on, the capture's TMPDIR)."""
    flag, tmp = examples_dir / "slow.flag", tmp_path / "tmp"  # where the sandbox shows it
    flag.write_text("")
    tmp.mkdir()
    write_example("a/fast.py", '# %%\nprint("fast")\n')
    write_example("b/slow.py", _slow(flag))
    proc = _capture_cli(examples_dir, *args, env={**os.environ, "TMPDIR": str(tmp)})
    _wait_for(lambda: record_path("a/fast.py", "cpu", examples_dir).exists() and _started(tmp))
    return proc, flag, tmp


def test_capture_killed_mid_run_leaves_whole_files_and_next_run_finishes(write_example, examples_dir, tmp_path):
    proc, flag, tmp = _fast_done_slow_running(write_example, examples_dir, tmp_path)
    # Leave a temp file as a write killed before its rename would.
    (examples_dir / "_outputs" / "a" / "fast" / ".cpu.json.x1.tmp").write_text('{"partial')
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    _wait_for(lambda: not alive_with(str(tmp)), timeout=10)  # the example died with the capture

    assert [f.relative_to(examples_dir).as_posix() for f in _all_store_files_are_whole(examples_dir)] == [
        "_outputs/a/fast/cpu.json"]
    assert not record_path("b/slow.py", "cpu", examples_dir).exists()

    flag.unlink()
    rerun = _capture_cli(examples_dir, env={**os.environ, "TMPDIR": str(tmp)})
    out, _ = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, out
    assert "running 1 of 2" in out, out  # only the unfinished one
    assert "slow finished" in record_path("b/slow.py", "cpu", examples_dir).read_text(encoding="utf-8")
    assert not list((examples_dir / "_outputs").rglob("*.tmp")), "leftover temp files are removed"


def test_two_captures_at_once_do_not_corrupt_the_store(write_example, examples_dir):
    """The second capture starts while the first holds the store's lock: the first's first example waits
    until the second has said that it waits (no race with how fast either starts)."""
    # In the examples folder, which the sandbox lets the example see, but among the tool caches the fallback's
    # repository check leaves out: the test writes it while the example runs.
    release = examples_dir / ".pytest_cache" / "release"
    release.parent.mkdir()
    write_example("ch/ex0.py", f"# %%\nimport os, time\nwhile not os.path.exists({str(release)!r}):\n"
                               f"    time.sleep(0.05)\nprint(\"run 0\")\n")
    for i in (1, 2):
        write_example(f"ch/ex{i}.py", f'# %%\nprint("run {i}")\n')
    first = _capture_cli(examples_dir)
    _wait_for(lambda: (examples_dir / "_outputs" / ".lock").exists())
    second = _capture_cli(examples_dir, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    reader = threading.Thread(target=lambda: [lines.append(line) for line in second.stdout], daemon=True)
    reader.start()
    try:
        _wait_for(lambda: any("another capture is running" in line for line in lines) or second.poll() is not None)
    finally:
        release.write_text("", encoding="utf-8")
    out1, _ = first.communicate(timeout=120)
    second.wait(timeout=120)
    reader.join(timeout=10)
    out2 = "".join(lines)
    assert first.returncode == second.returncode == 0, out1 + out2
    assert len(_all_store_files_are_whole(examples_dir)) == 3
    # The one that waited re-checks under the lock and runs nothing twice.
    assert "running 3 of 3" in out1, out1
    assert "another capture is running" in out2 and "nothing to run: 3 example(s)" in out2, out2


# --- an example hangs, the others still run -------------------------------------------------

def test_hanging_example_is_killed_and_the_others_still_run(write_example, examples_dir, capsys):
    write_example("ch/hang.py", '# /// example\n# timeout = 2\n# ///\n# %%\nprint("start")\n# %%\n'
                                'import time\nwhile True:\n    time.sleep(0.1)\n')
    write_example("ch/ok.py", '# %%\nprint("fine")\n')
    assert capture.main([], examples_dir) == 1
    err = capsys.readouterr().err
    assert "ch/hang.py:9: timed out after 2 s in cell 2 (line 9)" in err
    assert record_path("ch/ok.py", "cpu", examples_dir).exists()
    assert failure_path("ch/hang.py", "cpu", examples_dir).exists()


# --- non-determinism ------------------------------------------------------------------------

def test_check_mode_reports_cells_whose_output_changed(write_example, examples_dir, capsys):
    write_example("ch/steady.py", '# %%\nprint(2 + 2)\n')
    write_example("ch/clock.py", '# %%\nimport time\nprint("stable")\n# %%\nprint(time.perf_counter_ns())\n')
    write_example("ch/timing.py", '# %%\nprint("stable")\n# %% volatile=true\nimport time\n'
                                  'print(time.perf_counter_ns())\n')
    assert capture.main([], examples_dir) == 0
    before = {p: p.read_bytes() for p in (examples_dir / "_outputs").rglob("*.json")}
    capsys.readouterr()

    assert capture.main(["--check"], examples_dir) == 1
    out, err = capsys.readouterr()
    assert "ch/clock.py:5: cell 2 output changed between runs" in err
    assert "steady.py" not in err and "timing.py" not in err  # deterministic, or declared volatile
    assert "check: 3 re-run, 1 problem(s)" in out
    assert before == {p: p.read_bytes() for p in (examples_dir / "_outputs").rglob("*.json")}, \
        "check mode never writes the store"


def test_check_mode_passes_when_nothing_changed(write_example, examples_dir, capsys):
    write_example("ch/steady.py", '# %%\nimport torch\ntorch.manual_seed(0)\nprint(torch.rand(3))\n')
    assert capture.main([], examples_dir) == 0
    assert capture.main(["--check"], examples_dir) == 0


@pytest.mark.parametrize("args", [["--check"], []])
def test_broken_example_source_names_file_and_line(write_example, examples_dir, capsys, args):
    write_example("ch/bad.py", '# %% raises=RuntimeError\nprint(1)\n')
    assert capture.main(args, examples_dir) == 1
    assert "ch/bad.py:1:" in capsys.readouterr().err


# --- a failed re-capture, as the site shows it ----------------------------------------------

def test_failed_recapture_shows_last_good_output_with_notice_and_warns(write_example, examples_dir, caplog):
    """The page keeps the last good output and says the re-capture failed; the warning makes
    ``mkdocs build --strict`` (``make build``) fail while ``make serve`` keeps serving."""

    path = write_example("ch/ex.py", '# %%\nprint("the good output")\n')
    assert capture.main([str(path)], examples_dir) == 0
    path.write_text('# %%\nprint("the good output")\nraise ValueError("broken by an edit")\n')
    assert capture.main([str(path)], examples_dir) == 1

    page = SimpleNamespace(file=SimpleNamespace(src_uri="en/t.md", url="en/t/"))
    with caplog.at_level("WARNING"):
        plugin = opened_plugin(examples_dir=examples_dir)
        md = plugin.on_page_markdown("# T\n\n::: example ch/ex.py\n", page=page,
                                     config=SimpleNamespace(use_directory_urls=True), files=None)
    from test_embed import to_page_html

    shown = to_page_html(md, plugin.checkout.embeds)
    assert "Re-capture failed" in shown and "ch/ex.py:3: ValueError: broken by an edit" in shown
    assert "the good output" in shown
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert any("docs/en/t.md:3: the last capture of examples/ch/ex.py failed" in w for w in warnings), warnings


def test_ctrl_c_stops_capture_promptly_keeps_what_finished_and_leaves_no_temporary_directory(
        write_example, examples_dir, tmp_path):
    """SIGINT, as Ctrl-C sends it, to a real ``capture.py -j 2`` while one example sleeps."""
    proc, flag, tmp = _fast_done_slow_running(write_example, examples_dir, tmp_path, "-j", "2")
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=20)
    assert time.monotonic() - started < 5, "Ctrl-C did not stop capture promptly"
    assert proc.returncode == 130, out
    assert "interrupted; the records of examples that finished are stored" in out
    assert record_path("a/fast.py", "cpu", examples_dir).exists()
    assert not record_path("b/slow.py", "cpu", examples_dir).exists()
    assert not failure_path("b/slow.py", "cpu", examples_dir).exists(), "a cancelled run is no failure"
    _wait_for(lambda: not alive_with(str(tmp)), timeout=10)
    assert not list(tmp.glob("pn-run-*")), "temporary directories left behind"
