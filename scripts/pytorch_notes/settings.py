"""Where things are: the repository's folders and the languages of the site (one owner for each).

Standard library only.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_DIR = REPO_ROOT / "examples"
DOCS_DIR = REPO_ROOT / "docs"
LANGUAGES = ("zh", "en")  # the first is the default language, served at /


def display_path(path: Path | str, root: Path = REPO_ROOT) -> str:
    """``path`` relative to the repository when it is inside it (for messages), else unchanged. A symbolic
    link is named as itself, never as where it points (a message about a link must name the link)."""
    for candidate in (Path(os.path.abspath(path)), Path(path).resolve()):
        try:
            return candidate.relative_to(root).as_posix()
        except ValueError:
            continue
    return str(path)
