"""Where things are: the repository's folders and the languages of the site (one owner for each).

Standard library only.
"""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_DIR = REPO_ROOT / "examples"
DOCS_DIR = REPO_ROOT / "docs"
LANGUAGES = ("zh", "en")  # the first is the default language, served at /


def display_path(path: Path | str, root: Path = REPO_ROOT) -> str:
    """``path`` relative to the repository when it is inside it (for messages), else unchanged."""
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return str(path)


def pinned_torch(constraints: Path = REPO_ROOT / "constraints.txt") -> str | None:
    """The torch version the project pins (``torch==X`` in constraints.txt, the lock), or None."""
    try:
        lines = constraints.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    return next((ln.split("==", 1)[1].strip() for ln in lines if ln.lower().startswith("torch==")), None)
