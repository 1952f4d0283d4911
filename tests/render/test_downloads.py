"""The ``.py`` downloads run to their end, numbered as the page numbers them (render/download.py).

The fast tests run a made-up example and one real one; ``make check-downloads`` runs every download whose
example has a ``raises=`` cell (the others are the captured code itself plus a comment footer), in the
reader's two languages: ``PYTORCH_NOTES_RUN_DOWNLOADS=1 pytest tests/render/test_downloads.py``. A download is code
nobody reviewed yet, as its example is: each runs through the capture's runner and sandbox (``run_script``).
"""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest
from pytorch_notes.comments import localize
from pytorch_notes.examplefiles import discover_examples as discover
from pytorch_notes.execute.script import Outcome, run_script
from pytorch_notes.parse import parse_example
from pytorch_notes.render.download import py_download, run_past_errors
from pytorch_notes.settings import EXAMPLES_DIR, LANGUAGES

SOURCE = '''\
# /// example
# timeout = 10
# ///
# %%
print("one")

# %% raises="ZeroDivisionError"
x = 1
x / 0

# %% raises="KeyError"
{}["missing"]
# %%
print("two", x)

# %% raises="ValueError"
int("not a number")
'''


def run(path: Path, timeout: int = 120) -> Outcome:
    """``python <path>`` in its folder, as the capture runs an example (sandboxed, the example's environment)."""
    return run_script(path, timeout_s=timeout)


def raising_lines(source: str) -> dict[str, int]:
    """Exception name -> the 1-based line of the last statement of its raises= cell in ``source``."""
    found, name = {}, None
    for n, line in enumerate(source.splitlines(), start=1):
        if m := re.match(r'# %%.*raises="(\w+)"', line):
            name = m.group(1)
        elif line.startswith("# %%"):
            name = None
        elif name and line.strip() and not line.startswith("#"):
            found[name] = n
    return found


def test_a_download_runs_past_every_expected_error_with_the_pages_line_numbers(tmp_path):
    script = tmp_path / "ex.py"
    script.write_text(py_download(SOURCE, None, []), encoding="utf-8")
    done = run(script, timeout=30)
    assert done.ok, done.message + done.stderr
    assert done.stdout.split() == ["one", "two", "1"], done.stdout
    for name, line in raising_lines(SOURCE).items():
        assert re.search(rf'line {line}, in <module>\n.*\n(?:.*\n)*?{name}', done.stderr), (name, line, done.stderr)
    code = run_past_errors(SOURCE)
    assert code.splitlines()[: len(SOURCE.splitlines())][1:4] == SOURCE.splitlines()[1:4]
    assert len(code.splitlines()) == len(SOURCE.splitlines()) + 1, "only the last cell's except is a new line"


def test_a_download_runs_in_the_capture_sandbox_not_with_the_callers_environment(tmp_path, monkeypatch):
    """What a changed example tried in a download (issue 42): read the caller's token, write outside its
    folder. It sees the example's environment only, and under bubblewrap writes nothing but its copy."""
    token = f"pn-caller-{uuid.uuid4().hex}"
    monkeypatch.setenv("PN_TEST_CALLER_TOKEN", token)
    outside = tmp_path / "outside.txt"
    script = tmp_path / "dl" / "ex.py"
    script.parent.mkdir()
    script.write_text(f"""import os
print("token", os.environ.get("PN_TEST_CALLER_TOKEN"))
print("home", os.environ["HOME"] != {os.environ.get("HOME", "")!r})
try:
    open({str(outside)!r}, "w").write("written")
except OSError as exc:
    print("refused", type(exc).__name__)
""", encoding="utf-8")
    done = run(script, timeout=30)
    assert done.ok, done.message + done.stderr
    assert done.stdout.startswith("token None\nhome True\n"), done.stdout
    if done.isolation.startswith("bwrap"):
        assert "refused" in done.stdout and not outside.exists(), done.stdout
    assert os.listdir(script.parent) == ["ex.py"], "the script runs on a copy"


def test_every_download_keeps_the_page_line_numbers():
    """Line N of each download is line N of the example in the reader's language: the same statement,
    at most indented by the try: of its cell."""
    for path in discover(EXAMPLES_DIR):
        source = path.read_text(encoding="utf-8")
        for lang in LANGUAGES:
            shown = localize(source, lang).splitlines()
            code = run_past_errors(localize(source, lang)).splitlines()
            for n, (a, b) in enumerate(zip(shown, code[: len(shown)], strict=True), start=1):
                same = b in (a, "    " + a, "try:  " + a) or b.startswith("except Exception:") and not a.strip()
                assert same, f"{path}:{n} ({lang}): page {a!r}, download {b!r}"
            compile("\n".join(code), str(path), "exec")


def test_a_real_download_with_nine_cells_runs_to_its_end(tmp_path):
    rel = "debugging/common_errors.py"
    ex = parse_example(EXAMPLES_DIR / rel)
    script = tmp_path / "common_errors.py"
    script.write_text(py_download(ex.path.read_text(encoding="utf-8"), None, [], "en"), encoding="utf-8")
    done = run(script)
    assert done.ok, done.message + done.stderr[-2000:]
    expected = sum(1 for c in ex.cells if c.metadata.get("raises"))
    assert done.stderr.count("Traceback (most recent call last)") == expected, done.stderr[-2000:]


@pytest.mark.skipif(not os.environ.get("PYTORCH_NOTES_RUN_DOWNLOADS"), reason="make check-downloads runs them all")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_download_with_expected_errors_runs_to_its_end(tmp_path, lang):
    failed = []
    for path in discover(EXAMPLES_DIR):
        ex = parse_example(path)
        if ex.needs_cuda or not any(c.metadata.get("raises") for c in ex.cells):
            continue
        script = tmp_path / path.name
        script.write_text(py_download(path.read_text(encoding="utf-8"), None, [], lang), encoding="utf-8")
        done = run(script, timeout=max(ex.timeout_s, 60) * 2)
        if not done.ok:
            failed.append(f"{ex.rel}: {done.status}: {done.message[:300]} {done.stderr[-500:]}")
    assert not failed, "\n".join(failed)
