"""``docs/twins.json`` of the wrong shape names the file and what was expected (issue 42, item 8), for the
command (``make twins``), the content test (``lags``) and the build's banner (``page_lag``)."""

from __future__ import annotations

import json

import pytest
from pytorch_notes import twins
from pytorch_notes.twins import TwinsError, lags, page_lag


def _docs(tmp_path, ledger) -> object:
    docs = tmp_path / "docs"
    for lang in ("zh", "en"):
        (docs / lang).mkdir(parents=True)
        (docs / lang / "a.md").write_text(f"# {lang}\n", encoding="utf-8")
    (docs / "twins.json").write_text(ledger if isinstance(ledger, str) else json.dumps(ledger), encoding="utf-8")
    return docs


@pytest.mark.parametrize("ledger, words", [
    ([], "the top level is a list"),
    ("\"pages\"", "the top level is a string"),
    ({"about": "x"}, 'without "pages"'),
    ({"pages": ["a.md"]}, '"pages" is a list'),
    ({"pages": {"a.md": "0123456789abcdef"}}, "\"pages\"['a.md'] is a string, expected an object of hashes"),
    ({"pages": {"a.md": None}}, "\"pages\"['a.md'] is null"),
    ({"pages": {"a.md": {"zh": 1, "en": "x"}}}, "\"pages\"['a.md']['zh'] is a number, expected a string"),
    ("{not json", "not JSON"),
])
def test_a_ledger_of_the_wrong_shape_names_the_file_and_what_was_expected(tmp_path, capsys, ledger, words):
    docs = _docs(tmp_path, ledger)
    for call in (lambda: lags(docs), lambda: page_lag("a.md", docs)):
        with pytest.raises(TwinsError) as err:
            call()
        assert str(err.value).startswith(f"{docs / 'twins.json'}: unreadable translation ledger: "), str(err.value)
        assert words in str(err.value) and '{"pages": {"<page>.md": {"zh": "<hash>", "en": "<hash>"}' in str(err.value)
    assert twins.main([], docs) == 2
    assert "twins.json: unreadable translation ledger" in capsys.readouterr().err


def test_a_ledger_of_the_right_shape_still_reads(tmp_path):
    docs = _docs(tmp_path, {"pages": {}})
    twins.sync(["a.md"], docs)
    assert lags(docs) == [] and page_lag("a.md", docs) is None
