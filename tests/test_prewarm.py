"""Cold builds: the chapter notebooks rendered ahead on every core (site/prewarm.py) give the cache entries
mkdocs-jupyter's own page render gives, with nothing of it or nbconvert patched."""

from __future__ import annotations

import json

import nbformat
from pytorch_notes.site import prewarm

OPTIONS = {"execute": False, "kernel_name": "", "theme": "light", "allow_errors": True, "show_input": True,
           "no_input": False, "no_prompt": False, "remove_tag_config": {}, "highlight_extra_classes": "",
           "include_requirejs": False, "custom_mathjax_url": ""}


def _notebook(tmp_path, name, cells):
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language": "python",
                                                           "display_name": "Python 3"}})
    nb.cells = cells
    path = tmp_path / f"{name}.ipynb"
    nbformat.write(nb, path)
    return str(path)


def test_a_worker_stores_what_mkdocs_jupyter_renders(tmp_path):
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    path = _notebook(tmp_path, "nb", [
        nbformat.v4.new_markdown_cell("# 标题 · Title"), nbformat.v4.new_markdown_cell("## leaf.py\n\nText"),
        nbformat.v4.new_code_cell("print(1)", execution_count=1,
                                  outputs=[nbformat.v4.new_output("stream", name="stdout", text="1\n")])])
    expected_body = convert.nb2html(path, **OPTIONS)
    expected_toc, expected_title = _get_nb_toc_tokens(path, 6)
    entry_path = tmp_path / "cache" / "entry.json"
    prewarm.convert((path, str(entry_path), OPTIONS, 6))
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    assert entry == {"content": expected_body, "toc_tokens": expected_toc, "title": expected_title}


def test_the_headings_of_a_notebook_are_read_as_mkdocs_jupyter_reads_them(tmp_path):
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    md, code, raw = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell, nbformat.v4.new_raw_cell
    notebooks = {
        "one": [md("# 标题 · Title\n\nText with `# not a heading` in code."), code("# a comment\nprint(1)")],
        "several": [md("# Top"), code("x = 1"), md("## Part `a`\n\nSetext\n------\n\n```\n# fenced\n```"),
                    md("### Deep\n\n#### Deeper `x`\n\n# Second top")],
        "sections": [md("# 自动求导 · 笔记本"), md("## leaf_and_grad_fn.py\n\n示例 `examples/a/b.py`。"), code("x")],
        "span_across_cells": [md("Open ` tick"), md("## Kept heading\n\nclose ` tick")],
        "none": [code("print('# no heading')")],
        "rule_after_text": [md("Just text"), md("---\n\n## After")],  # cells apart: a rule, not a heading
        "raw": [md("# Title"), raw("# a raw cell: mkdocs-jupyter's own export decides")],
    }
    for name, cells in notebooks.items():
        path = _notebook(tmp_path, name, cells)
        for depth in (6, 2):
            assert prewarm.toc_tokens(path, depth) == _get_nb_toc_tokens(path, depth), (name, depth)
    called = []
    prewarm.toc_tokens(_notebook(tmp_path, "raw2", notebooks["raw"]), 6, lambda p, d: called.append(p) or ([], None))
    assert called, "a notebook with a raw cell goes through the export"


def test_make_serve_keeps_one_worker_for_the_notebooks_a_rebuild_redoes(tmp_path):
    from pathlib import Path
    from types import SimpleNamespace

    path = _notebook(tmp_path, "nb", [nbformat.v4.new_markdown_cell("# T")])
    cache = tmp_path / "cache"
    options = {k: OPTIONS[k] for k in prewarm._NB2HTML_OPTIONS}
    plugin = SimpleNamespace(config={"cache": True, "execute": False, "cache_dir": str(cache), "toc_depth": 6,
                                     **options})
    config = SimpleNamespace(plugins={"mkdocs-jupyter": plugin})
    warm = prewarm.Prewarm()
    warm.serve()
    try:
        assert warm.start(config, [Path(path)]) == 1, "one notebook is enough: the worker is there already"
        warm.wait(path)
        warm.finish()
        assert warm.pool is not None and len(list(cache.glob("*.json"))) == 1, "the worker stays for the next rebuild"
        assert warm.start(config, [Path(path)]) == 0  # in the cache now
    finally:
        warm.finish(cancel=True)  # a failed rebuild's: what is pending is dropped, the worker stays
        assert warm.pool is not None
        warm.pool.shutdown()
