"""The execute stage: an example run in a fresh process, its outputs cell by cell, an exception, a timeout,
a crash, figures (the ``make capture`` command around it: tests/commands/test_capture_cli.py)."""

from __future__ import annotations

from pytorch_notes.execute.supervise import run_example
from pytorch_notes.parse import parse_example


def run(write_example, examples_dir, source, rel="ch/ex.py", **kw):
    return run_example(parse_example(write_example(rel, source), examples_dir), **kw)


def test_outputs_belong_to_their_cells(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %%
        import sys
        print("one")
        # %%
        print("two"); print("warn", file=sys.stderr)
        # %%
        x = 41
        x + 1
    ''')
    assert r.ok, r.message
    outs = [c.outputs for c in r.cells]
    assert outs[0] == [{"type": "stream", "name": "stdout", "text": "one\n"}]
    assert outs[1] == [{"type": "stream", "name": "stdout", "text": "two\n"},
                       {"type": "stream", "name": "stderr", "text": "warn\n"}]
    assert outs[2] == [{"type": "display", "data": {"text/plain": "42"}}]
    assert r.provenance["device"] and r.provenance["python"]
    assert r.duration_s > 0 and r.captured_at.endswith("Z")


def test_unexpected_exception_names_file_and_line(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %%
        a = 1
        # %%
        def f():
            return {}["missing"]
        f()
    ''')
    assert r.status == "failed"
    assert r.location().endswith("ch/ex.py:5")  # the line inside f() that raised
    assert r.message == "KeyError: 'missing'"
    tb = r.cells[-1].outputs[-1]["traceback"]
    assert "runner.py" not in tb and "ex.py" in tb


def test_stored_tracebacks_hide_machine_directories(write_example, examples_dir):
    """A frame in the standard library shows as ``lib/python3.X/...``, not this machine's prefix."""
    import sys
    r = run(write_example, examples_dir, '# %% raises="ValueError"\nimport json\njson.loads("{")\n')
    assert r.ok, r.message
    tb = r.cells[0].outputs[0]["traceback"]
    assert f'File "lib/python{sys.version_info.major}.{sys.version_info.minor}/json/decoder.py"' in tb, tb
    assert sys.base_prefix not in tb
    lines = tb.splitlines()
    for i, line in enumerate(lines):  # each frame still shows its source line
        if line.startswith('  File "'):
            assert lines[i + 1].startswith("    ") and lines[i + 1].strip(), tb


def test_frame_path(tmp_path):
    import sys
    from pathlib import Path

    from pytorch_notes.execute.runner import frame_path
    root = tmp_path / "repo"
    assert frame_path(str(root / "examples/ch/ex.py"), root) == "examples/ch/ex.py"
    assert frame_path(str(root / ".venv/lib/python3.11/site-packages/torch/_tensor.py"), root) \
        == "site-packages/torch/_tensor.py"
    assert frame_path("/usr/lib/python3/dist-packages/numpy/core.py", root) == "dist-packages/numpy/core.py"
    stdlib = Path(sys.base_prefix) / "lib/python3.11/json/decoder.py"
    assert frame_path(str(stdlib), root) == "lib/python3.11/json/decoder.py"
    assert frame_path("<string>", root) == "<string>"
    assert frame_path("/elsewhere/x.py", root) == "/elsewhere/x.py"


def test_declared_exception_is_an_output(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %% raises="LookupError"
        [][1]
        # %%
        print("after")
    ''')
    assert r.ok
    err = r.cells[0].outputs[0]
    assert (err["type"], err["ename"], err["expected"]) == ("error", "IndexError", True)
    assert r.cells[1].outputs[0]["text"] == "after\n"


def test_declared_exception_that_is_not_raised_fails(write_example, examples_dir):
    r = run(write_example, examples_dir, '# %% raises="RuntimeError"\nx = 1\n')
    assert r.status == "failed" and "raised nothing" in r.message


def test_timeout_kills_and_reports_the_cell(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # /// example
        # timeout = 2
        # ///
        # %%
        print("started")
        # %%
        import time
        time.sleep(60)
    ''')
    assert r.status == "timeout"
    assert r.error_line == 8 and "cell 2" in r.message
    assert r.wall_s < 20
    assert r.cells[0].outputs[0]["text"] == "started\n"


def test_crash_is_reported(write_example, examples_dir):
    r = run(write_example, examples_dir, "# %%\nimport os\nprint('before', flush=True)\nos._exit(3)\n")
    assert r.status == "crashed" and "os._exit(3)" in r.message, r.message
    assert r.error_line == 4 and "before" in r.message, r.message


def test_figures_are_scraped_per_cell(write_example, examples_dir):
    r = run(write_example, examples_dir, '''
        # %%
        import matplotlib.pyplot as plt
        plt.plot([1, 2, 3])
        plt.show()
        # %%
        print("no figure here")
    ''')
    assert r.ok, r.message
    img = r.cells[0].outputs[0]
    assert img["type"] == "image" and img["mime"] == "image/png" and len(img["data"]) > 1000
    assert all(o["type"] != "image" for o in r.cells[1].outputs)
