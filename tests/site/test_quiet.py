"""Quiet builds (site/quiet.py): other packages' per-file lines go, warnings and this project's notes stay.
The session's real build log is checked in tests/site/test_notebook_view.py (test_no_notebook_is_converted_twice)."""

from __future__ import annotations

import logging

from pytorch_notes.site.quiet import NotebookLines, ThirdPartyDeprecations


def _record(msg: str, level: int = logging.INFO) -> logging.LogRecord:
    return logging.LogRecord("mkdocs.__main__", level, __file__, 1, msg, None, None)


def test_deprecations_inside_installed_packages_are_dropped_and_the_project_s_are_kept():
    keep = ThirdPartyDeprecations().filter
    jieba = ("DeprecationWarning: invalid escape sequence '\\.'\n"
             '  File "/x/.venv/lib/python3.11/site-packages/material/plugins/search/plugin.py", line 36, in <module>\n'
             '    import jieba\n  File "/x/.venv/lib/python3.11/site-packages/jieba/__init__.py", line 44, in \n')
    ours = 'DeprecationWarning: old\n  File "/x/scripts/pytorch_notes/site/embed.py", line 3, in f\n'
    assert not keep(_record(jieba))
    assert keep(_record(ours))
    assert keep(_record(jieba, logging.WARNING)), "a warning-level record always passes"
    assert keep(_record("Building documentation to directory: site")), "not a warning note"


def test_mkdocs_jupyter_lines_are_dropped_and_its_conversions_counted():
    lines = NotebookLines()
    assert not lines.filter(_record("Converting notebook (execute=False): a.ipynb"))
    assert not lines.filter(_record("Cache hit: a.ipynb"))
    assert lines.filter(_record("Converting notebook failed", logging.ERROR))
    assert lines.converted == 1
