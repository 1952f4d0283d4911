"""Stage 3, store: what the store accepts from an example (``store/untrusted.py``, ``execute/limits.py``).

Unit tests on made-up outputs, then two real runs: a 10 MB exception message and a 4000 x 4000 figure
(issue 26, items 3-5)."""

from __future__ import annotations

import base64
import json
import struct
import zlib

import pytest
from pytorch_notes.capture.run import failure_from_run, record_from_run
from pytorch_notes.execute import limits
from pytorch_notes.execute.supervise import run_example
from pytorch_notes.parse import parse_example
from pytorch_notes.store.model import Display, Error, Failure, Image, Stream
from pytorch_notes.store.records import save_failure, save_record
from pytorch_notes.store.untrusted import (
    Secrets,
    clean_failure,
    clean_outputs,
    figure_problem,
    page_text,
    png_size,
    terminal_text,
)

HOSTILE = "a\x1b[2J\x1b]0;title\x07b\x00c\x7fd\x9be\u202ef\u2066g\rh\n\ti"


def test_page_text_removes_every_control_character_but_newline_tab_and_carriage_return():
    assert page_text(HOSTILE) == "abcde⟨U+202E⟩f⟨U+2066⟩g\rh\n\ti", "bidi controls are shown, not obeyed nor hidden"
    assert page_text("lone \udcff surrogate") == "lone \ufffd surrogate"
    assert page_text("a\u2028b") == "a\nb"
    assert page_text("张量 tensor ✓") == "张量 tensor ✓"


def test_terminal_text_shows_control_characters_instead_of_obeying_them():
    shown = terminal_text(HOSTILE)
    assert not any(ch in shown for ch in "\x1b\x07\x00\x7f\x9b\u202e\u2066\r")
    assert shown.startswith("a\\x1b[2J\\x1b]0;title\\x07b\\x00c\\x7fd\\x9be\\u202ef\\u2066g\\x0dh\n    \ti")
    assert terminal_text("x\n[2/2] examples/ch/a.py: ok") == "x\n    [2/2] examples/ch/a.py: ok", \
        "a message cannot print a line that looks like the command's own"


def test_secret_values_of_the_environment_are_removed_and_short_or_ordinary_values_kept():
    secrets = Secrets({"GITHUB_TOKEN": "ghp_0123456789abcdef", "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG",
                       "DB_PASSWORD": "correct horse", "API_KEY": "short", "HOME": "/home/runner",
                       "PATH": "/usr/bin:/bin", "MY_PAT": "pat_abcdefghijkl"})
    assert secrets.names == ["AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "GITHUB_TOKEN", "MY_PAT"]
    text = "token ghp_0123456789abcdef key wJalrXUtnFEMI/K7MDENG pw correct horse short /home/runner pat_abcdefghijkl"
    assert secrets.scrub(text) == ("token [secret removed] key [secret removed] pw [secret removed] short "
                                   "/home/runner [secret removed]")
    out = clean_outputs((Stream("stdout", text), Error("E", "ghp_0123456789abcdef", "tb ghp_0123456789abcdef", 1,
                                                       False)), secrets)
    assert "ghp_" not in json.dumps([o.__dict__ for o in out])


def test_text_is_bounded_per_cell_and_the_cut_is_said():
    big = "x" * (limits.CELL_TEXT + 5000)
    out = clean_outputs((Stream("stdout", big), Display({"text/plain": "v", "text/html": "<b>v</b>"})))
    assert len(out[0].text) == limits.CELL_TEXT
    assert isinstance(out[1], Stream) and "5,000 more characters not stored" in out[1].text
    assert out[2].data == {"text/plain": ""}, "no text/html once the budget is spent"


def test_a_traceback_keeps_its_end_and_a_message_its_bound():
    tb = "Traceback (most recent call last):\n" + "  frame\n" * 10_000 + "ValueError: the end\n"
    (err, notice) = clean_outputs((Error("ValueError", "m" * (limits.ERROR_VALUE + 10), tb, 3, False),))
    assert len(err.evalue) == limits.ERROR_VALUE and "10 more characters" in notice.text
    assert err.traceback.endswith("ValueError: the end\n") and err.traceback.startswith("[traceback cut by capture")
    assert len(err.traceback) < limits.TRACEBACK + 200


def png(width: int, height: int) -> str:
    """A real (tiny-to-store) PNG of ``width`` x ``height`` grey pixels, base64."""
    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    chunk = lambda kind, data: (struct.pack(">I", len(data)) + kind + data  # noqa: E731
                                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    return base64.b64encode(data).decode("ascii")


@pytest.mark.parametrize(("data", "why"), [
    (png(3000, 20), "3000x20 px is larger than 2400 px per side"),
    (base64.b64encode(b"GIF89a not a png").decode(), "not a PNG image"),
    ("not base64 at all!", "not base64"),
])
def test_a_figure_past_the_bounds_is_refused_with_a_notice(data, why):
    assert figure_problem(Image("image/png", data, 10, 10)) == why
    (notice,) = clean_outputs((Image("image/png", data, 10, 10),))
    assert isinstance(notice, Stream) and why in notice.text


def test_a_figure_within_the_bounds_is_kept_and_its_size_clamped():
    (img,) = clean_outputs((Image("image/png", png(40, 30), 99_999, -3, alt="a\x1b[31m title"),))
    assert isinstance(img, Image) and png_size(base64.b64decode(img.data)) == (40, 30)
    assert (img.width, img.height, img.alt) == (limits.FIGURE_PIXELS, 1, "a title")


def test_a_failure_message_is_bounded_and_clean():
    f = Failure(2, "ch/x.py", "cpu", "k", "s", "crashed", "ch/x.py:3\x1b[2K", "boom\x07 " + "m" * 10_000, "t", None)
    cleaned = clean_failure(f)
    assert len(cleaned.message) == limits.MESSAGE and cleaned.message.startswith("boom m")
    assert cleaned.location == "ch/x.py:3"


# --- real runs --------------------------------------------------------------------------------------

def test_a_ten_megabyte_exception_stays_small_in_the_record_and_the_marker(write_example, examples_dir):
    ex = parse_example(write_example("ch/huge.py", '# %%\nraise ValueError("E" * 10_000_000)\n'), examples_dir)
    result = run_example(ex)
    assert result.status == "failed"
    marker = save_failure(failure_from_run(result), examples_dir)
    assert marker.stat().st_size < limits.MESSAGE * 2 + 2_000
    # the same output, stored as a record (a declared raise), within the bounds too
    ex = parse_example(write_example("ch/huge2.py", '# %% raises="ValueError"\nraise ValueError("E" * 10_000_000)\n'),
                       examples_dir)
    result = run_example(ex)
    assert result.ok, result.message
    saved = save_record(record_from_run(result), examples_dir)
    assert saved.stat().st_size < limits.CELL_TEXT * 2 + 20_000


def test_a_huge_figure_is_scaled_down_at_capture(write_example, examples_dir):
    ex = parse_example(write_example("ch/poster.py", '''
        # %%
        import matplotlib.pyplot as plt
        fig = plt.figure(figsize=(40, 1), dpi=100)
        plt.plot([0, 1], [0, 1])
        plt.title("poster")
        plt.show()
        '''), examples_dir)
    result = run_example(ex)
    assert result.ok, result.message
    record = record_from_run(result)
    (image,) = [o for o in record.cells[0].outputs if isinstance(o, Image)]
    width, height = png_size(base64.b64decode(image.data))
    assert max(width, height) <= limits.FIGURE_PIXELS and max(image.width, image.height) <= limits.FIGURE_PIXELS
    assert len(base64.b64decode(image.data)) <= limits.FIGURE_BYTES


def test_the_committed_store_holds_only_what_a_capture_writes():
    """Every CPU record in examples/_outputs passes ``validate_outputs.py --device cpu``: clean, bounded,
    isolation recorded, cells those of the example. A record edited by hand in a pull request fails here."""
    from pytorch_notes.store.validate import validate

    report = validate(kind="cpu")
    assert report.ok, report.problems[:10]
