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


def _toc(tokens) -> list:
    """The headings MkDocs' get_toc makes of ``tokens`` (what mkdocs-jupyter's page render reads back)."""
    from mkdocs.structure.toc import get_toc

    def plain(items):
        return [(i.title, i.id, i.level, plain(i.children)) for i in items]

    return plain(get_toc(tokens))


def test_a_worker_stores_what_mkdocs_jupyter_renders(tmp_path):
    """The entry's body and title are mkdocs-jupyter's; its headings give the page the same table of contents
    as the tokens mkdocs-jupyter would store (those hold keys get_toc does not read: html, data-toc-label)."""
    from mkdocs_jupyter import convert
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens  # what its own page render stores (a test may look)

    path = _notebook(tmp_path, "nb", [
        nbformat.v4.new_markdown_cell("# 标题 · Title"), nbformat.v4.new_markdown_cell("## leaf.py\n\nText"),
        nbformat.v4.new_code_cell("print(1)", execution_count=1,
                                  outputs=[nbformat.v4.new_output("stream", name="stdout", text="1\n")])])
    expected_body = convert.nb2html(path, **OPTIONS)
    expected_toc, expected_title = _get_nb_toc_tokens(path, 6)
    entry_path = tmp_path / "cache" / "entry.json"
    prewarm.convert((path, str(entry_path), OPTIONS, 6))
    entry = json.loads(entry_path.read_text(encoding="utf-8"))
    assert sorted(entry) == ["content", "title", "toc_tokens"]
    assert entry["content"] == expected_body and entry["title"] == expected_title == "标题 · Title"
    assert _toc(entry["toc_tokens"]) == _toc(expected_toc) and len(_toc(expected_toc)) == 1


def test_make_serve_keeps_one_worker_for_the_notebooks_a_rebuild_redoes(tmp_path):
    from pathlib import Path
    from types import SimpleNamespace

    path = _notebook(tmp_path, "nb", [nbformat.v4.new_markdown_cell("# T")])
    cache = tmp_path / "cache"
    options = {k: OPTIONS[k] for k in prewarm.NB2HTML_OPTIONS}
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
