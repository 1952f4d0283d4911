"""Stage 1, parse, on the pages (``pages.py``, ``twins.py``): a page missing in one language, twins that
embed different examples, an example embedded nowhere, and translation lag (which twin moved on, the
ledger ``make twins`` keeps). Each is set up in a throw-away ``docs/`` tree. The banner a lagging page
gets in the build: site/test_page_faults.py."""

from __future__ import annotations

from pytorch_notes import twins
from pytorch_notes.pages import embed_mismatches, missing_twins, orphan_examples


def test_page_missing_in_one_language_names_both_files(docs):
    docs("zh/a.md", "# 甲\n")
    docs("en/a.md", "# A\n")
    docs("zh/only-zh.md", "# 只有中文\n")
    assert missing_twins(docs.root) == ["docs/en/only-zh.md is missing (docs/zh/only-zh.md exists)"]


def test_twins_embedding_different_examples_are_named(docs):
    docs("zh/a.md", "# 甲\n\n::: example ch/one.py\n\n::: example ch/two.py\n")
    docs("en/a.md", "# A\n\n::: example ch/two.py\n\n::: example ch/one.py\n")
    docs("zh/b.md", "# 乙\n\n::: example ch/one.py\n")
    docs("en/b.md", "# B\n\n::: example ch/one.py\n")
    (problem,) = embed_mismatches(docs.root)
    assert problem.startswith("docs/zh/a.md and docs/en/a.md embed different examples")


def test_example_embedded_nowhere_is_named(docs, tmp_path):
    docs("zh/a.md", "::: example ch/used.py\n")
    docs("en/a.md", "::: example ch/used.py\n")
    ex = tmp_path / "examples" / "ch"
    ex.mkdir(parents=True)
    files = [ex / "used.py", ex / "forgotten.py"]
    assert orphan_examples(files, tmp_path / "examples", docs.root) == ["examples/ch/forgotten.py"]


# --- translation lag ------------------------------------------------------------------------

def test_translation_lag_names_the_stale_twin(docs):
    zh = docs("zh/a.md", "# 张量\n\n第一版。\n")
    en = docs("en/a.md", "# Tensors\n\nFirst version.\n")
    docs("zh/b.md", "# 乙\n")
    docs("en/b.md", "# B\n")
    twins.sync(["a.md", "b.md"], docs.root)
    assert twins.lags(docs.root) == []

    zh.write_text("# 张量\n\n第二版：加了一段。\n", encoding="utf-8")
    (lag,) = twins.lags(docs.root)
    assert (lag.page, lag.changed, lag.stale) == ("a.md", ("zh",), ("en",))
    assert "docs/zh/a.md and docs/en/a.md: the Chinese page changed since the last sync; " \
           "the English one may be out of date" in lag.describe(docs.root)

    en.write_text("# Tensors\n\nSecond version.\n", encoding="utf-8")
    (lag,) = twins.lags(docs.root)
    assert lag.stale == ("zh", "en") and "both changed" in lag.describe(docs.root)

    assert twins.main(["sync", "docs/en/a.md"], docs.root) == 0
    assert twins.lags(docs.root) == []
    assert twins.main([], docs.root) == 0


def test_new_page_is_flagged_until_recorded(docs, capsys):
    docs("zh/new.md", "# 新\n")
    docs("en/new.md", "# New\n")
    assert twins.main([], docs.root) == 1
    assert "never recorded as in step" in capsys.readouterr().out


def test_unreadable_ledger_says_how_to_recover(docs, capsys):
    docs("zh/a.md", "# 甲\n")
    docs("en/a.md", "# A\n")
    (docs.root / "twins.json").write_text("{oops", encoding="utf-8")
    assert twins.main([], docs.root) == 2
    assert "unreadable translation ledger" in capsys.readouterr().err
