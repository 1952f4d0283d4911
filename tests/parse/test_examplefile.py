"""Stage 1: parsing examples into cells and facts."""

from __future__ import annotations

import jupytext
import pytest
from pytorch_notes.parse import ExampleError, cell_options, discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR


def test_cells_lines_and_metadata(write_example, examples_dir):
    path = write_example("ch/a.py", '''
        # /// example
        # timeout = 5
        # requires = ["cuda"]
        # ///
        # %%
        import math

        x = 1

        # %% raises="ZeroDivisionError"
        1 / 0
        # %% volatile=true
        print(x)
    ''')
    ex = parse_example(path, examples_dir)
    assert ex.rel == "ch/a.py"
    assert ex.timeout_s == 5 and ex.needs_cuda
    assert [c.line for c in ex.cells] == [6, 11, 13]
    assert ex.cells[0].source == "import math\n\nx = 1"
    assert ex.cells[1].raises == "ZeroDivisionError"
    assert ex.cells[2].volatile and not ex.cells[0].volatile


@pytest.mark.parametrize("source, line, words", [
    ("# %% raises=RuntimeError\n1/0\n", 1, "not JSON"),
    ("# %% colour=\"red\"\npass\n", 1, "unknown cell option"),
    ("# /// example\n# timeout = -1\n# ///\n# %%\npass\n", 2, "above 0 and at most 3600"),
    ("# /// example\n# timeout = nan\n# ///\n# %%\npass\n", 2, "above 0 and at most 3600, got nan"),
    ("# /// example\n# timeout = inf\n# ///\n# %%\npass\n", 2, "above 0 and at most 3600, got inf"),
    ("# /// example\n# min_torch = 2.12\n# ///\n# %%\npass\n", 2, 'min_torch must be a version such as "2.12"'),
    ('# /// example\n# min_torch = "newest"\n# ///\n# %%\npass\n', 2, "min_torch must be a version"),
    ("# /// example\n# speed = 1\n# ///\n# %%\npass\n", 2, "unknown header key"),
    ("# /// example\n# timeout = 1\n# %%\npass\n", 1, "not closed"),
    ("# %%\nx = (\n", 2, "SyntaxError"),
    ("\n\n", 1, "no code cells"),
])
def test_errors_name_file_and_line(write_example, examples_dir, source, line, words):
    path = write_example("ch/bad.py", source)
    with pytest.raises(ExampleError) as err:
        parse_example(path, examples_dir)
    assert err.value.line == line
    assert str(err.value).startswith(f"{path}:{line}:") or f"bad.py:{line}:" in str(err.value)
    assert words in str(err.value)


def test_discover_skips_store_and_private(write_example, examples_dir):
    write_example("ch/a.py", "# %%\npass\n")
    write_example("_outputs/ch/x.py", "# %%\npass\n")
    write_example("ch/_helper.py", "# %%\npass\n")
    assert [p.name for p in discover_examples(examples_dir)] == ["a.py"]


@pytest.mark.parametrize("path", discover_examples(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_examples_split_like_jupytext(path):
    """Our stdlib parser agrees with jupytext, the reference reader of the percent format."""
    ours = [(c.source, {k: v for k, v in c.metadata.items()}) for c in parse_example(path).cells]
    nb = jupytext.read(path, fmt="py:percent")
    theirs = [(c.source.strip("\n"), {k: v for k, v in c.metadata.items() if k != "lines_to_next_cell"})
              for c in nb.cells if c.source.strip() and not c.source.startswith("# /// example")]
    assert ours == theirs


def test_the_key_of_code_is_the_same_on_every_python(monkeypatch):
    """Python 3.12 adds an empty ``type_params`` to every function and class in ``ast.dump``: a GPU machine on
    3.12 then computed other keys than this one on 3.11, and its records came back stale (parse.canonical_dump)."""
    import ast

    from pytorch_notes.parse import canonical_dump, code_key

    source = "def f(x):\n    return x\n\nclass A:\n    pass\n"
    expected = canonical_dump(ast.parse(source))
    for cls in (ast.FunctionDef, ast.ClassDef):  # the node classes as Python 3.12 defines them
        if "type_params" not in cls._fields:
            monkeypatch.setattr(cls, "_fields", cls._fields + ("type_params",))
    as_312 = ast.parse(source)
    for node in ast.walk(as_312):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            node.type_params = []
    assert "type_params=[]" in ast.dump(as_312)
    assert canonical_dump(as_312) == expected
    assert "type_params" not in canonical_dump(as_312)
    assert code_key(source, {}) == code_key(source + "# a comment\n", {})
    assert code_key(source, {}) != code_key(source.replace("return x", "return -x"), {})


def test_cell_options_finds_the_cells_parse_example_finds():
    """The stages after parsing (the .py download, the chapter zips' README) find cells and their options
    with ``parse.cell_options``, never a pattern of their own; on every real example it agrees with the parser."""
    for path in discover_examples(EXAMPLES_DIR):
        example = parse_example(path)
        found = cell_options(path.read_text(encoding="utf-8"), path)
        implicit = len(example.cells) - len(found)  # code before the first marker is a cell of its own
        assert implicit in (0, 1), example.rel
        explicit = example.cells[implicit:]
        assert [o for _, o in found] == [c.metadata for c in explicit], example.rel
        assert all(i + 1 < c.line for (i, _), c in zip(found, explicit, strict=True)), example.rel
