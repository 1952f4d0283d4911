"""Code shown is code run (issue 42, item 3): one character policy (``characters.py``) that parse refuses an
example's source with and that the store, the pages, the notebooks and the search index show an output's
text with; lines end where Python ends them."""

from __future__ import annotations

import ast
import re
import sys
import unicodedata

import pytest
from pytorch_notes import characters, parse
from pytorch_notes.characters import describe, is_refused, python_lines
from pytorch_notes.parse import ExampleError, code_key, parse_example
from pytorch_notes.store.model import Display, Error, Stream
from pytorch_notes.store.untrusted import clean_outputs, page_text, terminal_text

# Where str.splitlines ends a line and Python does not, the bidi controls of "Trojan Source", and the invisible
# characters: zero-width, word joiner and invisible operators, a byte order mark inside a file, variation
# selectors, tag characters, the soft hyphen, a Hangul filler, an escape.
HIDDEN = ["\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e",
          "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e",
          "\u200f", "\u061c", "\u200b", "\u200c", "\u200d", "\u2060", "\u2062", "\u2064", "\ufeff", "\ufe0f",
          "\U000e0100", "\U000e01ef", "\U000e0001", "\U000e0041", "\U000e007f", "\u00ad", "\u3164", "\x1b", "\x00"]
SEEN = ["a", "张", "é", " ", "\t", "\u3000", "\u00a0", "→", "✓", "😀", "⟨", "\ue000"]


def test_the_policy_is_every_control_format_and_separator_character_and_the_default_ignorables():
    """The ranges written out in ``characters.py`` are exactly what Unicode says on this Python, over every
    plane: categories Cc (but tab, newline, carriage return), Cf, Zl, Zp, and nothing else beyond the
    Default_Ignorable_Code_Point list."""
    every = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    marked = set(re.findall(f"[{characters.REFUSED_CLASS}]", every))
    wanted = {ch for ch in every if unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp"} and ch not in "\t\n\r"}
    assert not wanted - marked, f"not refused: {sorted(map(describe, wanted - marked))[:10]}"
    extra = {describe(ch) for ch in marked - wanted if unicodedata.category(ch) != "Cn"}
    assert extra <= {describe(ch) for ch in "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"} | {
        describe(chr(c)) for c in [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]}, extra
    assert all(is_refused(ch) for ch in HIDDEN) and not any(is_refused(ch) for ch in SEEN + ["\n", "\r"])


def test_lines_end_where_python_ends_them():
    """``python_lines`` agrees with the line numbers Python gives the statements; ``str.splitlines`` does not."""
    source = "a = 1\r\nb = 2\rc = 3\n# c\u2028d = 4\n# c\x0ce = 5\n# c\x85f = 6\n# \x1cg = 7\ns = '\u2029'\nz = 0"
    lines = python_lines(source)
    for node in ast.parse(source).body:
        assert lines[node.lineno - 1].startswith(ast.unparse(node.targets[0]) + " = "), (node.lineno, lines)
    assert [node.lineno for node in ast.parse(source).body] == [1, 2, 3, 8, 9]
    assert len(lines) == 9 and len(source.splitlines()) == 14
    assert python_lines("a\n\nb") == ["a", "", "b"] and python_lines("") == [] and python_lines("a\n") == ["a"]
    assert "".join(python_lines(source, keepends=True)) == source


@pytest.mark.parametrize("ch", HIDDEN)
@pytest.mark.parametrize("where", ["comment", "string", "code"])
def test_an_example_holding_a_hidden_character_is_refused_naming_file_line_and_character(
        write_example, examples_dir, ch, where):
    line = {"comment": f"# note{ch}print('hidden')", "string": f"s = 'a{ch}b'", "code": f"x = 1{ch}"}[where]
    path = write_example("ch/a.py", f"# %%\nimport math\n\n# %%\n{line}\nprint(1)\n")
    with pytest.raises(ExampleError) as err:
        parse_example(path, examples_dir)
    column = line.index(ch) + 1
    assert str(err.value).startswith(f"{path}:5: {describe(ch)} at column {column}: "), str(err.value)
    assert re.search(r"U\+[0-9A-F]{4,5} [A-Z]", str(err.value))


def test_a_byte_order_mark_opening_the_file_and_windows_line_ends_change_nothing(write_example, examples_dir):
    """Python skips a leading byte order mark and reads ``\\r\\n`` and ``\\r`` as ``\\n``: the example is the same,
    its key too, and every later stage gets ``\\n`` line ends (``Example.text``)."""
    source = "# %%\nx = 1\n\n# %% raises=\"ZeroDivisionError\"\n1 / 0\n"
    plain = parse_example(write_example("ch/a.py", source), examples_dir)
    path = examples_dir / "ch" / "b.py"
    path.write_bytes(b"\xef\xbb\xbf" + source.replace("\n", "\r\n").encode())
    windows = parse_example(path, examples_dir)
    assert windows.key == plain.key and [c.line for c in windows.cells] == [c.line for c in plain.cells] == [2, 5]
    assert windows.text == plain.text == source


def test_with_the_check_switched_off_cells_still_split_where_python_splits(write_example, examples_dir, monkeypatch):
    """The second defence: were a U+2028 let through, the cell would still be what Python runs: one comment
    line, then ``x = 1``; ``str.splitlines`` made the comment's tail a line of code on the page."""
    monkeypatch.setattr(parse, "first_refused", lambda text: None)
    path = write_example("ch/a.py", "# %%\n# note\u2028print('hidden')\nx = 1\n")
    cell = parse_example(path, examples_dir).cells[0]
    assert cell.source == "# note\u2028print('hidden')\nx = 1"
    assert cell.key == code_key("x = 1", {}), "the key is that of what Python runs"
    assert parse.cell_options("# %%\n# a\u2028# %% raises=\"E\"\n") == [(0, {})]


def test_later_stages_get_the_checked_text_never_the_file_read_again(write_example, examples_dir):
    """The ``.py`` download is ``Example.text``: a file changed after the build parsed it (here with a bidi
    override) is not read again behind the check."""
    from pytorch_notes.site.exampleindex import ExampleIndex

    path = write_example("ch/a.py", "# %%\nx = 1\n")
    examples = ExampleIndex(examples_dir)
    examples.new_build()
    assert examples.example("ch/a.py").text == "# %%\nx = 1\n", "parsed (and checked) first, as every embed is"
    path.write_text("# %%\nx = 1  # \u202e\n", encoding="utf-8")
    assert examples.source("ch/a.py") == "# %%\nx = 1\n"


# --- outputs ---------------------------------------------------------------------------------------------------

def test_an_output_shows_what_parse_refuses_and_nothing_else():
    """One policy: ``page_text`` (the store, the pages, the notebooks, the search index) changes exactly the
    characters parse refuses; ``terminal_text`` escapes exactly those and the carriage return."""
    for cp in [*range(0xD800), *range(0xE000, 0x10000), *range(0xE0000, 0xE0200), 0x110BD, 0x1D173, 0x1F600]:
        ch = chr(cp)
        if ch in "\t\n\r":
            continue
        assert (page_text(f"a{ch}b") != f"a{ch}b") == is_refused(ch), describe(ch)
        assert (terminal_text(f"a{ch}b") != f"a{ch}b") == is_refused(ch), describe(ch)


def test_an_invisible_or_bidi_character_in_an_output_is_a_visible_mark_in_the_store():
    text = "a\u200bb\u202ec\ufe0fd\U000e0041e\u00adf"
    shown = "a⟨U+200B⟩b⟨U+202E⟩c⟨U+FE0F⟩d⟨U+E0041⟩e⟨U+00AD⟩f"
    stream, display, error = clean_outputs((Stream("stdout", text), Display({"text/plain": text}),
                                            Error("E", text, f"Traceback\nE: {text}\n", 1, False)))
    assert stream.text == display.data["text/plain"] == error.evalue == shown
    assert error.traceback.endswith(f"E: {shown}\n")
    assert page_text(shown) == shown, "cleaning twice changes nothing (validate_outputs compares)"
    assert terminal_text(text) == "a\\u200bb\\u202ec\\ufe0fd\\U000e0041e\\xadf"


def test_the_page_and_the_notebook_show_the_mark_never_the_character(write_example, examples_dir):
    from pytorch_notes.render.html import Links, render_example
    from pytorch_notes.render.notebook import build_notebook, dumps
    from pytorch_notes.store.records import freshness
    from test_store import fake_record, put

    ex = parse_example(write_example("ch/ex.py", "# %%\nprint(1)\n"), examples_dir)
    put(examples_dir, fake_record(ex, "cpu", "tok\u200ben \u202eevil\u2066 e\u0301\n"), "cpu")
    fresh = freshness(ex, examples_dir)
    md, _ = render_example(ex, fresh, "en", str, Links(py="a.py", ipynb="a.ipynb", notebook="nb/"))
    notebook = dumps(build_notebook(fresh.record, "en", "Chapter", "https://example.org/ch/"))
    for where in (md, notebook):
        assert "⟨U+200B⟩" in where and "⟨U+202E⟩" in where and "⟨U+2066⟩" in where, where
        assert not re.search(f"[{characters.REFUSED_CLASS}]", where), "a hidden character left"
        assert "\\u200b" not in where and "\\u202e" not in where
    assert "e\u0301" in md, "a combining accent is seen: kept"
