"""Memos keyed by a file's identity, and their copies across processes (pytorch_notes.filememo)."""

from __future__ import annotations

import pytest
from pytorch_notes import filememo

CALLS: list[str] = []


@filememo.file_memo(persist="test-lengths")
def _length(path) -> int:
    CALLS.append(str(path))
    with open(path, encoding="utf-8") as fh:
        return len(fh.read())


@filememo.value_memo("test-upper", limit=2)
def _upper(text: str) -> str:
    CALLS.append(text)
    return text.upper()


@pytest.fixture(autouse=True)
def _isolated():
    """Each test starts with empty memos and no persistence; what it turns on is turned off after."""
    saved = filememo.persisting()
    filememo.persist(None, "")
    filememo.forget()
    CALLS.clear()
    yield
    filememo.persist(*saved)
    filememo.forget()


def _new_process():
    """What a new process sees: empty memories, the files on disk read again on first use."""
    filememo.forget()


def test_a_result_is_reused_until_the_file_changes(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("abc", encoding="utf-8")
    assert _length(f) == 3 and _length(f) == 3
    assert len(CALLS) == 1
    f.write_text("abcdef", encoding="utf-8")
    assert _length(f) == 6
    assert len(CALLS) == 2


def test_nothing_outlives_the_process_unless_persist_was_called(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("abc", encoding="utf-8")
    _length(f)
    filememo.save()
    _new_process()
    _length(f)
    assert len(CALLS) == 2
    assert not list(tmp_path.glob("*.pickle"))


def test_persisted_results_are_reused_by_the_next_process(tmp_path):
    memo = tmp_path / "memo"
    f = tmp_path / "a.txt"
    f.write_text("abc", encoding="utf-8")
    filememo.persist(memo, "v1")
    assert _length(f) == 3 and _upper("x") == "X"
    filememo.save()
    assert {"test-lengths.pickle", "test-upper.pickle"} <= {p.name for p in memo.iterdir()}
    _new_process()
    assert _length(f) == 3 and _upper("x") == "X"
    assert CALLS == [str(f), "x"]  # not called again


def test_a_changed_file_or_other_code_is_never_answered_from_the_store(tmp_path):
    memo = tmp_path / "memo"
    f = tmp_path / "a.txt"
    f.write_text("abc", encoding="utf-8")
    filememo.persist(memo, "v1")
    _length(f)
    _upper("x")
    filememo.save()
    _new_process()
    f.write_text("abcd", encoding="utf-8")
    assert _length(f) == 4  # the stored stat key no longer matches
    _new_process()
    filememo.persist(memo, "v2")  # the code changed: every stored file is unread
    assert _upper("x") == "X"
    assert CALLS == [str(f), "x", str(f), "x"]


def test_saving_drops_results_of_changed_files_and_caps_value_memos(tmp_path):
    memo = tmp_path / "memo"
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("a", encoding="utf-8")
    b.write_text("b", encoding="utf-8")
    filememo.persist(memo, "v1")
    _length(a)
    _length(b)
    _upper("p")
    _upper("q")
    b.unlink()
    filememo.save()
    assert str(b).encode() not in (memo / "test-lengths.pickle").read_bytes(), "b's result did not go with b"
    _new_process()
    CALLS.clear()
    assert _length(a) == 1 and CALLS == [], "a's result was not kept"
    _upper("q")
    _upper("s")  # 3 results > limit 2: only the ones this process used are saved
    filememo.save()
    _new_process()
    CALLS.clear()
    _upper("p")
    _upper("q")
    _upper("s")
    assert CALLS == ["p"]


def test_an_unreadable_store_is_ignored(tmp_path):
    memo = tmp_path / "memo"
    memo.mkdir()
    (memo / "test-upper.pickle").write_bytes(b"not a pickle")
    filememo.persist(memo, "v1")
    assert _upper("y") == "Y"
