"""The ``.py`` downloads run to their end, numbered as the page numbers them (render/download.py).

The fast tests run a made-up example and one real one; ``make check-downloads`` runs every download whose
example has a ``raises=`` cell (the others are the captured code itself plus a comment footer), in the
reader's two languages: ``PYTORCH_NOTES_RUN_DOWNLOADS=1 pytest tests/test_downloads.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pytorch_notes.comments import localize
from pytorch_notes.examplefiles import discover_examples as discover
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


def run(path: Path, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=timeout,
                          cwd=path.parent)


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
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["one", "two", "1"], done.stdout
    for name, line in raising_lines(SOURCE).items():
        assert re.search(rf'line {line}, in <module>\n.*\n(?:.*\n)*?{name}', done.stderr), (name, line, done.stderr)
    code = run_past_errors(SOURCE)
    assert code.splitlines()[: len(SOURCE.splitlines())][1:4] == SOURCE.splitlines()[1:4]
    assert len(code.splitlines()) == len(SOURCE.splitlines()) + 1, "only the last cell's except is a new line"


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
    assert done.returncode == 0, done.stderr[-2000:]
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
        if done.returncode != 0:
            failed.append(f"{ex.rel}: exit {done.returncode}: {done.stderr[-500:]}")
    assert not failed, "\n".join(failed)
