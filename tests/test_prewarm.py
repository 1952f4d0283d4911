"""Cold builds: the notebooks rendered ahead on every core (site/prewarm.py) and the slim cache entries
(site/notebook_css.py) give the pages mkdocs-jupyter's own render gives."""

from __future__ import annotations

import json

import nbformat
from pytorch_notes.site import notebook_css, prewarm

BIG = "body { color: red; }\n" * 100  # longer than NOTEBOOK_CSS_MIN
SMALL = ".x { margin: 0 }"


def test_lifted_stylesheets_link_where_the_blocks_were():
    html = f'<p>a</p><style type="text/css">{BIG}</style><style type="text/css">{SMALL}</style><p>b</p>'
    slim, lifted = notebook_css.lift_stylesheets(html)
    (digest, css), = lifted.items()
    assert css == BIG and len(digest) == 16
    assert slim == (f'<p>a</p><link rel="stylesheet" href="pytorch-notes-css:{digest}">'
                    f'<style type="text/css">{SMALL}</style><p>b</p>')
    assert notebook_css.lift_stylesheets(slim) == (slim, {})  # already slim: unchanged
    assert slim.replace(f'<link rel="stylesheet" href="pytorch-notes-css:{digest}">',
                        f'<style type="text/css">{BIG}</style>') == html


def test_a_worker_stores_what_mkdocs_jupyter_renders(tmp_path, monkeypatch):
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    monkeypatch.setattr(notebook_css, "_CSS_CACHE", tmp_path / "css")
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language": "python",
                                                           "display_name": "Python 3"}})
    nb.cells = [nbformat.v4.new_markdown_cell("# 标题 · Title"), nbformat.v4.new_code_cell(
        "print(1)", outputs=[nbformat.v4.new_output("stream", name="stdout", text="1\n")], execution_count=1)]
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    options = {"execute": False, "kernel_name": "", "theme": "light", "allow_errors": True, "show_input": True,
               "no_input": False, "no_prompt": False, "remove_tag_config": {}, "highlight_extra_classes": "",
               "include_requirejs": False, "custom_mathjax_url": ""}
    expected_body = convert.nb2html(str(path), **options)
    expected_toc, expected_title = _get_nb_toc_tokens(str(path), 6)
    prewarm._share_compiled_templates()  # as in a worker of the pool
    entry_path = tmp_path / "cache" / "entry.json"
    prewarm._convert((str(path), str(entry_path), options, 6))
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    slim, lifted = notebook_css.lift_stylesheets(expected_body)
    assert lifted, "nbconvert inlines its stylesheets: the entry must carry links instead"
    assert entry == {"content": slim, "toc_tokens": expected_toc, "title": expected_title}
    for digest, css in lifted.items():
        assert (tmp_path / "css" / f"{digest}.css").read_text(encoding="utf-8") == css


def _notebook(tmp_path, name, cells):
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language": "python",
                                                           "display_name": "Python 3"}})
    nb.cells = cells
    path = tmp_path / f"{name}.ipynb"
    nbformat.write(nb, path)
    return str(path)


def test_the_headings_of_a_notebook_are_read_as_mkdocs_jupyter_reads_them(tmp_path):
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    md, code, raw = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell, nbformat.v4.new_raw_cell
    notebooks = {
        "one": [md("# 标题 · Title\n\nText with `# not a heading` in code."), code("# a comment\nprint(1)")],
        "several": [md("# Top"), code("x = 1"), md("## Part `a`\n\nSetext\n------\n\n```\n# fenced\n```"),
                    md("### Deep\n\n#### Deeper `x`\n\n# Second top")],
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
