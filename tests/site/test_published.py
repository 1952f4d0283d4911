"""Stage 5, the MkDocs glue: of ``docs/``, a build publishes pages and the assets they use, nothing else that
lies there (``site/published.py``; issue 42, item 4: a ``docs/en/__pycache__/login.html`` an example wrote
without the sandbox was published by a strict build)."""

from __future__ import annotations

from mkdocs.plugins import PluginCollection
from mkdocs.structure.files import File, Files
from pytorch_notes.site.plugin import PyTorchNotesPlugin


def test_docs_publishes_only_pages_and_assets(tmp_path):
    """What an example planted in ``docs/`` (an HTML page in a ``__pycache__``, a script with an odd
    suffix, a hidden folder) is not in the files the build publishes; pages and assets are."""
    docs = tmp_path / "docs"
    kept = ["en/index.md", "assets/site.css", "assets/search.js", "assets/tablesort/LICENSE", "img/fig.png"]
    dropped = ["en/__pycache__/login.html", "en/login.html", "zh/page.md.orig", ".hidden/x.md", "en/run.py"]
    for rel in kept + dropped:
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text("x", encoding="utf-8")
    files = Files([File(rel, str(docs), str(tmp_path / "site"), True) for rel in kept + dropped])
    config = type("Config", (), {"docs_dir": str(docs)})()
    plugins = PluginCollection()
    plugins["pytorch-notes"] = PyTorchNotesPlugin()
    first = plugins.events["files"][0]  # the plugin's first on_files handler, the one MkDocs runs first
    out = first(files, config=config)
    assert sorted(f.src_uri for f in out) == sorted(kept)
