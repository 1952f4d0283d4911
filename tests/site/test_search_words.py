"""Chinese words in the search index and the query's vocabulary (site/searchwords.py), without a browser."""

from __future__ import annotations

from pytorch_notes.settings import DOCS_DIR
from pytorch_notes.site import searchwords as sw

J, M = "\u200b", sw.WORD_END  # jieba's word separator, the marker inside a word


def test_words_are_marked_between_their_characters_once():
    text = f"<p>{J}张量{J}的{J}形状{J}：shape 与 CUDA张量</p>"
    marked = sw.mark_words(text)
    assert marked == f"<p>{J}张{M}量{J}的{J}形{M}状{J}：shape 与 CUDA张{M}量</p>", marked
    assert sw.mark_words(marked) == marked, "marking twice changes nothing"
    assert "的" in marked.split(J), "a one-character word (lunr.zh drops its stop words) stays as it is"


def test_the_vocabulary_counts_the_words_as_jieba_split_them():
    docs = [{"title": f"自{M}动{J}求{M}导", "text": f"{J}自{M}动{J}求{M}导{J}的{J}张{M}量"}]
    assert sw.vocabulary(docs) == {"自动": 2, "求导": 2, "的": 1, "张量": 1}
    script = sw.vocabulary_script(docs, frozenset({"的"}))
    assert script.startswith('window.__pnVocabulary={"张量":1,') and 'window.__pnStopWords=["的"]' in script
    assert f"window.__pnMaxWord={sw.MAX_WORD};" in script  # the browser's split tries words up to it


def test_the_vocabulary_counts_latin_words_for_the_browsers_spelling():
    """search-forms.js corrects a mistyped English word ("torch.compiel") to the index's word one edit away."""
    docs = [{"title": "Compile", "text": f"<p>用 <code>torch.compile</code> 编译{J}CUDA张{M}量 &quot;x&quot; a_b</p>"}]
    words = sw.vocabulary(docs)
    assert {w: n for w, n in words.items() if w.isascii()} == {"compile": 2, "torch": 1, "cuda": 1}, words
    script = sw.vocabulary_script(words, frozenset())
    assert 'window.__pnLatin={"compile":2,"cuda":1,"torch":1};' in script, script
    assert '"compile"' not in script.split("window.__pnLatin")[0], "the Chinese words' counts hold no Latin word"


def test_lunr_stop_words_come_from_materials_copy_of_lunr_zh():
    stop = sw.lunr_stop_words()
    assert {"的", "了", "和", "是"} <= stop and len(stop) > 100


def test_jiebas_user_dictionary_is_the_glossarys_terms():
    glossary = (DOCS_DIR / "zh" / "glossary.md").read_text(encoding="utf-8")
    assert sw.USER_DICTIONARY.read_text(encoding="utf-8") == sw.user_dictionary_text(glossary), \
        "the glossary changed: run .venv/bin/python -m pytorch_notes.site.searchwords"
    terms = sw.glossary_terms("| 中文 | English |\n| --- | --- |\n| 索引 / 切片 | x |\n| 连续（内存布局） | y |\n")
    assert terms == ["内存布局", "切片", "索引", "连续"], terms
