"""The pytorch-notes MkDocs plugin defers imports a warm build never uses (pytorch_notes.site.plugin)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from pytorch_notes.site.plugin import defer_import

ROOT = Path(__file__).resolve().parent.parent


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
