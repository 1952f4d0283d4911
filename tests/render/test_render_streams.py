"""Warnings and messages that quote the example are shown as the page shows the example (issue 31):
the line a warning names is the page's line, and a quoted source line speaks the page's language."""

from __future__ import annotations

from pytorch_notes.comments import localize
from pytorch_notes.render.kinds import Context, example_text, kind_of
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.store.model import Error, Stream

PATH = "examples/ch/n1_trap.py"
WARNING = (f"{PATH}:22: UserWarning: Using a target size that is different to the input size\n"
           "  loss = loss_fn(pred, target)  # zh: 形状不一致 | en: shapes differ\n")
EXPORT = (f"# File: {PATH}:15 in forward, code: if x.sum() > 0:  "
          "# zh: 取决于 x 的数值 | en: depends on the values in x\n"
          'File "other.py", line 15, in f\n')


def shown(lang: str):
    return dict(line_map=lambda n: n - 2, show_code=lambda code: localize(code, lang))


def test_a_warning_names_the_pages_line_and_quotes_the_pages_language():
    zh = example_text(WARNING, PATH, **shown("zh"))
    assert zh.startswith(f"{PATH}:20: UserWarning") and "  loss = loss_fn(pred, target)  # 形状不一致" in zh, zh
    en = example_text(WARNING, PATH, **shown("en"))
    assert "# shapes differ" in en and "zh:" not in en, en


def test_torch_exports_quote_of_the_source_is_localized_and_renumbered():
    zh = example_text(EXPORT, PATH, **shown("zh"))
    assert f"{PATH}:13 in forward, code: if x.sum() > 0:  # 取决于 x 的数值" in zh, zh
    assert 'File "other.py", line 15' in zh, "another file's lines stay as they are"


def test_stream_and_error_outputs_go_through_it():
    ctx = Context(STRINGS["en"], example_path=PATH, **shown("en"))
    html = kind_of(Stream("stderr", WARNING)).html(Stream("stderr", WARNING), ctx)
    assert f"{PATH}:20: UserWarning" in html and "zh:" not in html, html
    err = Error("RuntimeError", EXPORT, "Traceback (most recent call last):\n" + EXPORT, expected=True, line=3)
    html = kind_of(err).html(err, ctx)
    assert "zh:" not in html and "depends on the values in x" in html, html
