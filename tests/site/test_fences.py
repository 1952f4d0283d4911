"""A build highlights each distinct Python code block once (site/fences.py), with the HTML SuperFences gives."""

from __future__ import annotations

import markdown
from pytorch_notes.site.fences import Highlights, SameCodeOnce

BLOCK = '```python linenums="3" title="a.py"\nx = torch.ones(2)  # 张量\n```\n'
PAGE = f"{BLOCK}\n=== \"CPU\"\n\n    {BLOCK.replace(chr(10), chr(10) + '    ')}\n=== \"CUDA\"\n\n    " \
       f"{BLOCK.replace(chr(10), chr(10) + '    ')}\n```python\ny = 1\n```\n\n{BLOCK.replace('x = ', 'z = ')}"


def _convert(*extra, anchors: bool = False) -> str:
    highlight = {"pygments_lang_class": True, "anchor_linenums": anchors}
    md = markdown.Markdown(extensions=["pymdownx.highlight", "pymdownx.superfences", "pymdownx.tabbed", *extra],
                           extension_configs={"pymdownx.highlight": highlight,
                                              "pymdownx.tabbed": {"alternate_style": True}})
    return md.convert(PAGE)


def test_a_repeated_block_is_highlighted_once_into_the_same_html():
    highlights = Highlights()
    assert _convert(SameCodeOnce(highlights)) == _convert()
    assert len(highlights.html) == 3  # the block shown three times, and two others
    assert _convert(SameCodeOnce(highlights)) == _convert()  # from the kept HTML
    highlights.clear()
    assert not highlights.html


def test_blocks_whose_ids_count_the_blocks_are_all_highlighted():
    assert _convert(SameCodeOnce(Highlights()), anchors=True) == _convert(anchors=True)
