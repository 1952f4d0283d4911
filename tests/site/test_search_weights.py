"""A search entry that lists the site's pages weighs less than the rest of its page
(pytorch_notes.site.searchweights)."""

from __future__ import annotations

from pytorch_notes.site import searchweights

CHAPTERS = ["快速上手", "张量", "自动求导", "优化器", "训练循环", "保存与加载模型", "设备与 CUDA", "调试与检查",
            "钩子（Hook）", "量化"]


def _entry(location: str, title: str, *items: str) -> dict:
    return {"location": location, "title": title, "text": "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"}


def _index() -> list[dict]:
    pages = [{"location": f"c{i}/", "title": t, "text": "<p>正文</p>"} for i, t in enumerate(CHAPTERS)]
    course_map = "<ul>" + "".join(f"<li>{t}：这一章讲什么。3 个示例</li>" for t in CHAPTERS[:4]) + "</ul>"
    return pages + [
        {"location": "", "title": "PyTorch\u200b笔\u2060记", "text": "<p>先读" + "、".join(CHAPTERS[:6]) + "。</p>"},
        {"location": "#怎样看示例和输出", "title": "怎样看示例和输出", "text": "<p>每个示例都是一个脚本。</p>"},
        {"location": "#基础", "title": "基础", "text": course_map},
        _entry("c2/#接下来", "接下来", "\u200b优化器\u200b：更新参数。", "训练循环：完整的流程。"),
        _entry("c2/#叶子节点", "叶子节点", "张量的 grad", "叶子节点", "保留梯度"),
        {"location": "c1/#小结", "title": "小结", "text": "<p>" + "、".join(CHAPTERS) + "</p>"},
        {"location": "glossary/", "title": "术语表", "text": "<p>" + "、".join(CHAPTERS) + "</p>", "boost": 0.5},
    ]


def test_a_table_of_contents_weighs_less_and_the_rest_of_its_page_does_not():
    docs = _index()
    out = {d["location"]: d.get("boost") for d in searchweights.weigh_contents(docs)}
    assert out["#基础"] == searchweights.CONTENTS_BOOST, "the course map's part: every item a chapter's title"
    assert out["c2/#接下来"] == searchweights.CONTENTS_BOOST, "a chapter's list of the next chapters"
    assert out[""] == searchweights.CONTENTS_BOOST, "the home page's overview names 6 of the 12 pages"
    assert out["#怎样看示例和输出"] is None, "the home page's own section weighs as any section"
    assert out["c2/#叶子节点"] is None, "one item of three begins with a page's title ('张量的 grad')"
    assert out["c1/#小结"] is None, "a section naming every chapter in prose is not counted"
    assert out["glossary/"] == 0.5, "a page's own boost stays"
    assert all(out[f"c{i}/"] is None for i in range(len(CHAPTERS)))
    assert "boost" not in docs[-5], "the entries given are not changed"


def test_a_page_title_counts_only_on_other_pages():
    docs = [{"location": "a/", "title": "张量", "text": "<ul><li>张量的形状</li><li>张量的类型</li></ul>"},
            {"location": "b/", "title": "自动求导", "text": "<p>x</p>"}]
    assert [d.get("boost") for d in searchweights.weigh_contents(docs)] == [None, None]
    assert searchweights.is_contents(docs[0], searchweights.page_titles(docs + [{"location": "c/", "title": "张量"}]))
