"""Where examples live and which files the pipeline may read, run and publish; the one rule for their
names; the error every stage reports a bad example with. Standard library only.

An example is ``examples/<chapter>/<name>.py``: a plain file, never a symbolic link (a link is how a file
from elsewhere, ``/etc/passwd`` or a secret of the building machine, would be run by a capture or
published by the site), with a name that needs no escaping in ids, URLs and file names. Its syntax is
``parse.py``'s.
"""

from __future__ import annotations

import functools
import os
import re
import stat
from pathlib import Path

from pytorch_notes.settings import EXAMPLES_DIR, REPO_ROOT

# The one rule for example names, used by capture, the embed syntax and the error messages:
# examples/<chapter>/<name>.py with chapter and name in lowercase ASCII letters, digits, "_" and "-",
# starting with a letter or digit (so that ids, URLs and file names need no escaping).
NAME_PATTERN = r"[a-z0-9][a-z0-9_-]*"
EXAMPLE_ID_PATTERN = rf"{NAME_PATTERN}/{NAME_PATTERN}\.py"
NAME_RULE = ("an example is examples/<chapter>/<name>.py, where <chapter> and <name> use only lowercase "
             "letters a-z, digits 0-9, '_' and '-', and start with a letter or digit")
_EXAMPLE_ID_RE = re.compile(rf"^{EXAMPLE_ID_PATTERN}$")


class ExampleError(ValueError):
    """An example file is malformed or not allowed. ``str()`` starts with ``path:line:``, the path as
    given (relative to the repository when inside it), never where a symbolic link points."""

    def __init__(self, path: Path | str, line: int, message: str):
        self.path, self.line, self.message = Path(path), line, message
        shown = Path(os.path.abspath(path))
        shown = shown.relative_to(REPO_ROOT).as_posix() if shown.is_relative_to(REPO_ROOT) else str(shown)
        super().__init__(f"{shown}:{line}: {message}")


def check_example_id(rel: str) -> str | None:
    """None when ``rel`` (e.g. ``"autograd/leaf.py"``) follows ``NAME_RULE``, else a message saying why not."""
    if _EXAMPLE_ID_RE.match(rel):
        return None
    return f"{rel!r} is not a valid example name: {NAME_RULE}"


@functools.lru_cache(maxsize=64)
def _real(folder: str) -> str:
    return os.path.realpath(folder)


def example_file(path: Path | str, examples_dir: Path = EXAMPLES_DIR) -> tuple[Path, str]:
    """(path, id) of the example at ``path``, checked: the pipeline may read, run and publish it.

    No symbolic link is followed below ``examples_dir`` (the folder itself may be one): a link is how a
    file from elsewhere (``/etc/passwd``, a secret of the building machine) would be run by a capture or
    published by the site, and the course has none, so every link is refused, wherever it points. The
    path returned goes through ``examples_dir`` resolved; the id, e.g. ``"autograd/leaf.py"``, is checked
    against ``NAME_RULE`` by ``parse_example``. A missing file passes (reading it fails).

    Raises:
        ExampleError (line 1): ``path`` is not under ``examples_dir``; it or its chapter folder is a
            symbolic link ("resolves outside examples/ (-> target)" when it points outside); it is a
            directory or another thing that is not a regular file.
    """
    given, folder = os.path.abspath(path), os.path.abspath(examples_dir)
    root = _real(folder)
    base = next((b for b in (root, folder) if given.startswith(b + os.sep)), None)
    if base is None:
        raise ExampleError(given, 1, f"not inside {root}/: {NAME_RULE}")
    rel = given[len(base) + 1:]
    where, mode = root, 0
    for part in rel.split(os.sep):  # os.lstat, not pathlib: a build checks ~1,000 times
        where = f"{where}{os.sep}{part}"
        try:
            mode = os.lstat(where).st_mode
        except OSError:
            mode = 0
            break
        if stat.S_ISLNK(mode):
            target = os.path.realpath(where)
            what = f"is a symbolic link (-> {target})" if target.startswith(root + os.sep) else \
                f"resolves outside examples/ (-> {target})"
            raise ExampleError(where, 1, f"{what}; examples must be plain files inside examples/, not links")
    if stat.S_ISDIR(mode):
        raise ExampleError(where, 1, "is a directory, not an example file")
    if mode and not stat.S_ISREG(mode):
        raise ExampleError(where, 1, "is not a regular file")
    return Path(where), rel.replace(os.sep, "/")


def discover_examples(examples_dir: Path = EXAMPLES_DIR) -> list[Path]:
    """Every candidate example ``<examples_dir>/<chapter>/<name>.py``, sorted; ``_``/``.`` folders and
    ``_`` files skipped. Candidates, not verdicts: a symbolic link, a directory named ``*.py`` or an
    unreadable file is listed too (under ``examples_dir`` resolved, the link itself not followed), so that
    every consumer gets ``parse_example``'s ExampleError for it instead of skipping it silently."""
    root = Path(_real(os.path.abspath(examples_dir)))
    return [p for p in sorted(root.glob("*/*.py"))
            if not p.parent.name.startswith(("_", ".")) and not p.name.startswith("_")]


def discovered_id(path: Path) -> str:
    """The id (``"<chapter>/<name>.py"``) of a path ``discover_examples`` listed."""
    return f"{path.parent.name}/{path.name}"


@functools.lru_cache(maxsize=4096)  # a build asks ~1,000 times
def resolve_example(rel: str, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Map an embed identifier such as ``"autograd/leaf.py"`` to its path under ``examples_dir`` (may
    not exist). A symbolic link there is not followed: ``parse_example`` refuses it."""
    return Path(_real(os.path.abspath(examples_dir))) / rel
