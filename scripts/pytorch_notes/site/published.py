"""What of ``docs/`` a build publishes: pages and the assets they use, nothing else that lies there.

``docs/`` is in the checkout, and an example run without bubblewrap may have written into it before the
capture's check undid it (``execute/fallback.py``); an editor or a tool may leave files there too. A build
copies every file of ``docs_dir`` it is given into the site, so the first ``on_files`` handler
(``plugin.py``) keeps only a page or an asset: a file whose suffix is one of ``PUBLISHED`` (or a vendored
``LICENSE``), in no ``__pycache__`` and no hidden folder. Generated files (the notebooks, downloads and zips
the plugin adds later) are not in ``docs/`` and are not concerned. What is left out is logged (info).
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath

from pytorch_notes.site.common import log

PUBLISHED = frozenset({".md", ".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".woff2"})
NAMES = frozenset({"LICENSE"})  # a vendored script's licence beside it (docs/assets/*/LICENSE)


def publishable(src_uri: str) -> bool:
    """Whether a file of ``docs/`` at ``src_uri`` (``en/index.md``) is a page or an asset the site may publish."""
    path = PurePosixPath(src_uri)
    if any(part == "__pycache__" or part.startswith(".") for part in path.parts):
        return False
    return path.suffix.lower() in PUBLISHED or path.name in NAMES


def only_publishable(files, docs_dir: str):
    """Remove from MkDocs' ``files`` every file of ``docs_dir`` that is not ``publishable``; returns ``files``."""
    docs = os.path.realpath(docs_dir)
    for file in list(files):
        src = getattr(file, "abs_src_path", None)
        if src and os.path.realpath(src).startswith(docs + os.sep) and not publishable(file.src_uri):
            files.remove(file)
            log.debug("docs/%s is not published: not a page or an asset of one", file.src_uri)
    return files
