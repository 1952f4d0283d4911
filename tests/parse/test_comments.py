"""Bilingual code comments (issue #16 item 10): ``comments.localize`` and ``comments.problems`` (parse),
the page, notebook and ``.py`` download in the reader's language (render), freshness unaffected by
comments, and every example under ``examples/`` written in the form (content).

The form is documented in CONTRIBUTING.md ("代码注释" / "Code comments")."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from pytorch_notes.capture.cli import record_from_run
from pytorch_notes.comments import localize, map_line, problems, shown_cells
from pytorch_notes.execute.supervise import run_example
from pytorch_notes.parse import code_key, discover_examples, parse_example
from pytorch_notes.render.html import Links, render_example
from pytorch_notes.render.kinds import example_traceback
from pytorch_notes.render.notebook import build_notebook, py_download
from pytorch_notes.settings import EXAMPLES_DIR, REPO_ROOT
from pytorch_notes.store.model import Error
from pytorch_notes.store.records import freshness, save_record


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


GROUPS = src('''
    # %%
    import torch

    # zh: 从 out 沿计算图往回走到叶子节点 x，
    # zh: 一路累加梯度。
    # en: Walk the graph backwards from `out` to the leaf x,
    # en: accumulating gradients on the way.
    x = torch.ones(2, requires_grad=True)
    for _ in range(2):
        # zh: 缩进的注释
        # en: an indented comment
        x.grad = None  # zh: 清空 | en: reset
    s = "# zh: 不是注释 | en: not a comment"
''')


# --- localize -----------------------------------------------------------------------------------

def test_localize_keeps_one_language_of_each_group_without_its_tag():
    zh, en = localize(GROUPS, "zh"), localize(GROUPS, "en")
    assert "# 从 out 沿计算图往回走到叶子节点 x，\n# 一路累加梯度。\nx = torch" in zh
    assert "# Walk the graph backwards from `out` to the leaf x,\n# accumulating gradients on the way.\nx =" in en
    assert "    # 缩进的注释\n    x.grad = None  # 清空\n" in zh
    assert "    # an indented comment\n    x.grad = None  # reset\n" in en
    for text, other in ((zh, "Walk the graph"), (en, "沿计算图")):
        comments = text.replace('"# zh: 不是注释 | en: not a comment"', "")
        assert other not in text and "zh:" not in comments and "en:" not in comments


def test_localize_never_touches_code_or_strings():
    for lang in ("zh", "en"):
        out = localize(GROUPS, lang)
        assert 's = "# zh: 不是注释 | en: not a comment"' in out, "a # inside a string is not a comment"
        assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(GROUPS))
        code = [ln for ln in GROUPS.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        shown = [ln for ln in out.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        assert [ln.split("  #")[0] for ln in shown] == [ln.split("  #")[0] for ln in code]


def test_localize_drops_exactly_the_other_languages_lines():
    assert GROUPS.count("\n") - localize(GROUPS, "zh").count("\n") == 3  # two en lines, one indented
    assert GROUPS.count("\n") - localize(GROUPS, "en").count("\n") == 3


def test_untagged_and_exempt_comments_pass_through():
    assert localize("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nx = 1\n", "en").startswith("#!/usr")
    text = src('''
        # /// example
        # timeout = 120
        # ///
        # %% raises="RuntimeError"
        import os  # noqa: F401
        x: list = []  # type: ignore
        # an untagged comment
        #
    ''')
    assert localize(text, "zh") == text and localize(text, "en") == text


def test_localize_rejects_an_unknown_language():
    with pytest.raises(ValueError, match="fr"):
        localize("# zh: a\n# en: b\n", "fr")


# --- problems -----------------------------------------------------------------------------------

def test_a_well_formed_example_has_no_problems():
    assert problems(GROUPS, "examples/ch/ex.py") == []


@pytest.mark.parametrize("text, line, words", [
    ("# %%\n# just prose\nx = 1\n", 2, "untagged comment"),
    ("# %%\nx = 1  # just prose\n", 2, "untagged trailing comment"),
    ("# %%\n# zh: 只有中文\nx = 1\n", 2, "without `# en:`"),
    ("# %%\n# en: English only\nx = 1\n", 2, "without `# zh:`"),
    ("# %%\n# en: first\n# zh: 其次\nx = 1\n", 2, "`# en:` lines before `# zh:`"),
    ("# %%\nx = 1  # zh: 只有中文\n", 2, "without its en part"),
    ("# %%\nx = 1  # en: only English\n", 2, "without its zh part"),
    ("# %%\n# fr: bonjour\nx = 1\n", 2, "unknown comment tag 'fr'"),
    ("# %%\n# ZH: 大写\n# en: upper\nx = 1\n", 2, "unknown comment tag 'ZH'"),
    ("# %%\n# zh：全角冒号\n# en: full-width colon\nx = 1\n", 2, "unknown comment tag 'zh'"),
    ("# %%\nif True:\n    # zh: 缩进\n# en: not indented\n    x = 1\n", 3, "different indentations"),
])
def test_each_problem_names_file_and_line(text, line, words):
    found = problems(text, "examples/ch/ex.py")
    assert found, text
    assert found[0].startswith(f"examples/ch/ex.py:{line}: "), found
    assert words in found[0], found


def test_exempt_comments_are_not_problems():
    assert problems("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n# %%\nx = 1\n", "ex.py") == []
    text = src('''
        # /// example
        # timeout = 120
        # requires = ["cuda"]
        # ///
        # %% raises="RuntimeError" caption="a figure"
        import os  # noqa: F401
        x: list = []  # type: ignore[var-annotated]
        #
        s = "# not a comment"
    ''')
    assert problems(text, "ex.py") == []


def test_several_groups_in_a_row_and_multi_line_groups():
    text = "# %%\n# zh: 一\n# zh: 二\n# en: one\n# en: two\n# zh: 三\n# en: three\nx = 1\n"
    assert problems(text, "ex.py") == []
    assert localize(text, "en") == "# %%\n# one\n# two\n# three\nx = 1\n"


def test_a_file_that_does_not_tokenize_is_one_problem():
    (found,) = problems('# %%\ns = """never closed\n', "ex.py")
    assert found.startswith("ex.py:1: cannot read the comments")


# --- freshness: comments never make outputs stale -------------------------------------------------

def test_code_key_ignores_comments_in_either_language(write_example, examples_dir):
    plain = "x = 1\nprint(x)\n"
    one = "# zh: 中文\nx = 1\nprint(x)  # 打印\n"
    both = "# zh: 中文\n# en: English\nx = 1\nprint(x)  # zh: 打印 | en: print it\n"
    assert code_key(plain, {}) == code_key(one, {}) == code_key(both, {})
    assert code_key(both, {}) == code_key(localize(both, "zh"), {}) == code_key(localize(both, "en"), {})
    a = parse_example(write_example("ch/a.py", "# %%\n" + one), examples_dir)
    b = parse_example(write_example("ch/a.py", "# %%\n" + both), examples_dir)
    assert a.key == b.key and a.sha256 != b.sha256


# --- render: the page, the notebook and the .py download in the reader's language -------------------

EXAMPLE = src('''
    # %%
    # zh: 中文注释
    # en: the English comment
    x = 2  # zh: 二 | en: two
    print(x)
    # %% raises="ZeroDivisionError"
    # zh: 第二个单元格
    # en: the second cell
    x / 0
''')
LINKS = Links(py="../examples/ch/ex.py", ipynb="../notebooks/ch/ex.ipynb", notebook="../notebooks/ch/#expy")


@pytest.fixture
def captured(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", EXAMPLE), examples_dir)
    save_record(record_from_run(run_example(ex)), examples_dir)
    return ex, freshness(ex, examples_dir)


@pytest.mark.parametrize("lang, mine, other", [("zh", ["中文注释", "# 二", "第二个单元格"], ["English", "two"]),
                                               ("en", ["the English comment", "# two", "the second cell"],
                                                ["中文", "二"])])
def test_page_notebook_and_py_download_show_the_readers_language(captured, lang, mine, other):
    ex, fresh = captured
    md, _ = render_example(ex, fresh, lang, lambda p: "../" + p, LINKS)
    nb = build_notebook(fresh.record, lang, "Chapter", "", ex)
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    py = py_download(ex.path.read_text(encoding="utf-8"), fresh.record, [], lang)
    for name, text in (("page", md), ("notebook", code), (".py", py)):
        for words in mine:
            assert words in text, f"{lang} {name}: {words!r} missing"
        for words in other:
            assert words not in text, f"{lang} {name}: {words!r} from the other language"
        assert "zh:" not in text and "en:" not in text, f"{lang} {name}: a tag is shown"
    compile(py, "ex.py", "exec")


def test_line_numbers_follow_the_localized_file(captured):
    ex, fresh = captured
    md, _ = render_example(ex, fresh, "zh", lambda p: "../" + p, LINKS)
    # line 2 of the file is the first of cell 1; cell 2 starts on line 7 of the file, line 6 without
    # the one en line of cell 1; the ZeroDivisionError was raised on line 9 of the file, line 7 in zh
    assert 'linenums="2"' in md and 'linenums="6"' in md
    shown = shown_cells(ex.cells, "en")
    assert [c.line for c in shown.values()] == [2, 6]
    keys = {c.index: c.key for c in ex.cells}
    assert map_line(9, fresh.record.cells, shown, keys) == 7
    assert map_line(4, fresh.record.cells, shown, keys) == 3  # `x = 2` under one en line in en


def test_the_examples_frames_of_a_traceback_are_renumbered_and_localized():
    err = Error(ename="ZeroDivisionError", evalue="division by zero", line=9, expected=True,
                traceback='Traceback (most recent call last):\n  File "examples/ch/ex.py", line 9, in <module>\n'
                          '    x / 0  # zh: 除以零 | en: divide by zero\n    ~~^~~\n'
                          'ZeroDivisionError: division by zero')
    tb = example_traceback(err, "examples/ch/ex.py", lambda n: n - 2, lambda code: localize(code, "en"))
    assert 'File "examples/ch/ex.py", line 7, in <module>\n    x / 0  # divide by zero\n    ~~^~~\n' in tb


def test_a_traceback_line_maps_to_the_code_line_after_comments_were_added(write_example, examples_dir):
    """Captured without a comment, then given one in both languages (no re-capture): the stored
    traceback's line (2) still points at the statement that raised, line 3 of each language's file."""
    ex = parse_example(write_example("ch/ex.py", '# %% raises="ZeroDivisionError"\n1 / 0\n'), examples_dir)
    record = record_from_run(run_example(ex))
    now = parse_example(write_example("ch/ex.py", '# %% raises="ZeroDivisionError"\n# zh: 中文\n# en: English\n'
                                                  '1 / 0\n'), examples_dir)
    assert now.key == ex.key
    for lang in ("zh", "en"):
        shown = shown_cells(now.cells, lang)
        assert map_line(2, record.cells, shown, {c.index: c.key for c in now.cells}) == 3
    changed = parse_example(write_example("ch/ex.py", '# %% raises="ZeroDivisionError"\n# zh: 中\n# en: E\n2 / 0\n'),
                            examples_dir)
    assert map_line(2, record.cells, shown_cells(changed.cells, "zh"), {c.index: c.key for c in changed.cells}) == 2, \
        "a cell whose code changed keeps the stored line"


# --- content: every example is written in the form ------------------------------------------------

def test_every_example_has_bilingual_comments():
    found = []
    for path in discover_examples(EXAMPLES_DIR):
        found += problems(path.read_text(encoding="utf-8"), Path(path).relative_to(REPO_ROOT).as_posix())
    assert not found, f"{len(found)} comment problem(s) (see CONTRIBUTING.md, 'Code comments'):\n" + \
        "\n".join(found[:60])


def test_the_scaffolded_example_is_in_the_form():
    from pytorch_notes import scaffold
    assert problems(scaffold.EXAMPLE, "examples/new/first_example.py") == []


def test_the_command_lists_problems_and_exits_1(tmp_path, capsys):
    from pytorch_notes.comments import main
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text("# %%\nx = 1  # prose\n", encoding="utf-8")
    good.write_text(GROUPS, encoding="utf-8")
    assert main([str(good)]) == 0
    assert main([str(bad), str(good)]) == 1
    out = capsys.readouterr().out
    assert "bad.py:2: untagged trailing comment" in out and "good.py" not in out.split("\n", 1)[1]


def test_a_cell_marker_keeps_the_captions_of_the_readers_language_only():
    """An English ``.py`` download showed ``caption_zh="…"`` on its markers (issue 44, item 5)."""
    src = '# %% raises="X" caption_zh="图 \\"一\\"" caption_en="A \\"figure\\""\nx = 1\n'
    assert localize(src, "en").splitlines()[0] == '# %% raises="X" caption_en="A \\"figure\\""'
    assert localize(src, "zh").splitlines()[0] == '# %% raises="X" caption_zh="图 \\"一\\""'
    assert localize(src, "zh").splitlines()[1] == "x = 1"
