"""The pytorch-notes MkDocs plugin (pytorch_notes.site.plugin): the site's one entry, its events in their
order among the other plugins', and the imports a warm build never uses deferred (site/deferimports.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from pytorch_notes.site.deferimports import defer_import

ROOT = Path(__file__).resolve().parents[2]


def _package(tmp_path: Path, name: str) -> Path:
    """A package whose submodule ``heavy`` records that it ran in the environment variable it sets."""
    pkg = tmp_path / name
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "heavy.py").write_text(textwrap.dedent("""
        import os
        os.environ["HEAVY_RAN"] = os.environ.get("HEAVY_RAN", "") + "x"
        def answer():
            return 42
    """), encoding="utf-8")
    return pkg


def test_a_deferred_module_runs_on_first_use_not_on_import(tmp_path, monkeypatch):
    _package(tmp_path, "deferpkg")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("HEAVY_RAN", raising=False)
    try:
        assert defer_import("deferpkg.heavy")
        import deferpkg.heavy  # noqa: F401 - the import statement alone (Python 3.11 reads __spec__)
        from deferpkg import heavy  # what mkdocs-jupyter's plugin does
        assert "HEAVY_RAN" not in os.environ
        assert heavy.answer() == 42
        assert os.environ["HEAVY_RAN"] == "x"  # once
        assert sys.modules["deferpkg.heavy"].answer() == 42
        assert os.environ["HEAVY_RAN"] == "x"
        assert not defer_import("deferpkg.heavy")  # imported already: left alone
    finally:
        for name in ("deferpkg.heavy", "deferpkg"):
            sys.modules.pop(name, None)


def test_an_unknown_module_is_not_deferred():
    assert not defer_import("no_such_module_anywhere_here")


def test_loading_the_config_imports_no_notebook_converter():
    """mkdocs.yml lists the plugin before mkdocs-jupyter: loading it leaves nbconvert and jupytext unrun."""
    code = ("import sys; from mkdocs.config import load_config; load_config('mkdocs.yml'); "
            "print(sorted(m for m in ('nbconvert', 'nbformat', 'jupytext.jupytext') if m in sys.modules))")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]"


# Each event of the glue with its handlers in the order MkDocs runs them, by plugin: the glue's handlers run
# after the other plugins' default (priority 0) handlers, as when they were hook files, and at their own priorities
# around Material's search and mkdocs-static-i18n ("i18n") where they must.
EVENT_ORDER = {
    "startup": ["material/search", "pytorch-notes"],
    "serve": ["material/search", "pytorch-notes"],
    "config": ["material/search", "material/offline", "pytorch-notes", "i18n"],
    "pre_build": ["mkdocs-jupyter", "pytorch-notes"],
    "files": ["pytorch-notes", "mkdocs-jupyter", "i18n", "pytorch-notes"],  # put the site back; add files
    "nav": ["i18n", "pytorch-notes"],
    "env": ["i18n", "pytorch-notes"],
    "page_markdown": ["i18n", "pytorch-notes"],
    "page_content": ["pytorch-notes"],
    "page_context": ["i18n", "pytorch-notes", "material/search", "pytorch-notes"],  # around Material's indexing
    "post_page": ["mkdocs-jupyter", "pytorch-notes", "i18n"],
    # each language's 404 kept before i18n builds the other languages; the per-language search indexes
    # and the site's clean-up after everything
    "post_build": ["pytorch-notes", "material/search", "mkdocs-jupyter", "i18n", "material/offline",
                   "pytorch-notes"],
    "build_error": ["pytorch-notes"],
    "shutdown": ["pytorch-notes"],  # make serve stops: the notebook conversions still running end (site/later.py)
}


def test_the_plugin_is_the_only_entry_and_its_events_keep_their_order():
    code = ("import json; from mkdocs.config import load_config\n"
            "a, b = load_config('mkdocs.yml'), load_config('mkdocs.yml')\n"
            "names = {id(p): name for name, p in a.plugins.items()}  # each handler is a bound method of its plugin\n"
            "order = {e: [names[id(m.__self__)] for m in ms] for e, ms in a.plugins.events.items() if ms}\n"
            "print(json.dumps({'order': order, 'hooks': list(a.hooks), 'plugins': list(a.plugins),\n"
            "                  'kept': a.plugins['pytorch-notes'] is b.plugins['pytorch-notes']}))")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    found = json.loads(proc.stdout)
    assert found["hooks"] == [] and found["plugins"][0] == "pytorch-notes"
    assert {e: o for e, o in found["order"].items() if "pytorch-notes" in o} == EVENT_ORDER
    assert found["kept"]  # one instance across the config reloads of mkdocs serve: its state lives on
