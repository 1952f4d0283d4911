"""The build's one cache: every value a build keeps for the next is stored under a key made one way.

``key(kind, inputs)`` is the SHA-256 of the kind of value (``"markdown"``, ``"search"``,
``"bundles"``, ``"jinja"``, ``"notebooks"``), the value's own inputs as plain data, and the digest of
the environment (``Environment``): ``constraints.txt`` (every library's version), the package's code
(``scripts/pytorch_notes``: the code that makes the value, the search words), ``mkdocs.yml`` and the
theme's overrides (its ``custom_dir``, ``docs/overrides``), and Python's version. Whatever else a value
depends on is in its own inputs; no cache keeps a list of libraries or modules of its own. A value is
stored once, under ``<cache_dir>/<kind>/<key[:2]>/<key><suffix>``, written atomically
(``atomic.write_atomic``, the project's one atomic write), so concurrent builds share it.

The code's digest is taken once per ``Store`` (per process: the code that runs is the code imported
then), the rest at each build's start (``new_build``). Keys change with any of these, so an entry is never
invalidated by hand: the entries a full build did not use go after ``KEEP_S`` (``evict``).
``tests/site/test_cache.py`` changes each input of a key and sees the key, and the value, change.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from pathlib import Path

from pytorch_notes.atomic import write_atomic
from pytorch_notes.site.project import CODE, Project

FORMAT = 1  # bump when what a stored value holds changes
KEEP_S = 600.0  # an entry a full build did not use is kept this long (another configuration's, make serve's)
SUFFIXES = {"markdown": ".json", "search": ".json", "bundles": ".zip", "jinja": ".bc"}
RETIRED = ("page",)  # kinds no build stores any more, whose entries ``evict`` removes


def digest(payload) -> str:
    """SHA-256 of ``payload`` as JSON (keys sorted; an object that is not plain data by ``str``)."""
    data = json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(data.encode("utf-8", "surrogatepass")).hexdigest()


def files_digest(place: Path) -> str:
    """SHA-256 of a file, or of every file under a folder (path and content, in path order; none: "-")."""
    if place.is_file():
        return hashlib.sha256(place.read_bytes()).hexdigest()
    out = hashlib.sha256()
    for path in sorted(place.rglob("*")) if place.is_dir() else []:
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            out.update(path.relative_to(place).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return out.hexdigest()


class TextDigests:
    """SHA-256 of a text (UTF-8), computed once per string object: a page's HTML is in the keys of its
    search entries and of its conversion, where its digest stands in for the text (hashing it is cheaper
    than ``digest``'s ``json.dumps`` of it). The plugin holds one, shared by the caches of its builds."""

    def __init__(self) -> None:
        self.known: dict[int, tuple[str, str]] = {}  # id -> (the string, held so the id is not reused; digest)

    def __call__(self, text: str) -> str:
        found = self.known.get(id(text))
        if found is not None and found[0] is text:
            return found[1]
        if len(self.known) > 4096:
            self.known.clear()
        value = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        self.known[id(text)] = (text, value)
        return value


class Environment:
    """What every cached value depends on: the files ``places`` (label -> file or folder) and Python's
    version. ``code`` (label -> folder) is hashed once, the others on every ``digest(again=True)``."""

    def __init__(self, places: dict[str, Path], code: dict[str, Path] | None = None) -> None:
        self.places = places
        self.code = {label: files_digest(p) for label, p in (code or {}).items()}
        self.value: str | None = None

    @classmethod
    def of(cls, project: Project, code: Path = CODE / "pytorch_notes") -> Environment:
        """A checkout's: its ``constraints.txt``, ``mkdocs.yml`` and theme overrides (``docs/overrides``); the
        package's ``code``."""
        return cls({"constraints": project.root / "constraints.txt", "config": project.config_file,
                    "overrides": project.overrides_dir or project.docs_dir / "overrides"}, {"code": code})

    def digest(self, again: bool = False) -> str:
        if self.value is None or again:
            parts = {label: files_digest(p) for label, p in self.places.items()}
            self.value = digest([sys.version, self.code, parts])
        return self.value


class Store:
    """The values of one cache folder ``root`` under the keys of ``env``; ``used`` holds the entries read
    or written since ``new_build``, which ``evict`` keeps."""

    def __init__(self, root: Path, env: Environment | None = None) -> None:
        self.root = root
        self.env = Environment({}) if env is None else env
        self.used: set[Path] = set()

    @classmethod
    def of(cls, project: Project) -> Store:
        return cls(project.cache_dir, Environment.of(project))

    def new_build(self) -> None:
        """A new build: the environment read again, nothing used yet."""
        self.env.digest(again=True)
        self.used.clear()

    def key(self, kind: str, inputs) -> str:
        """The one key recipe: the kind, the value's own inputs (plain data) and the environment."""
        return digest([FORMAT, kind, inputs, self.env.digest()])

    def path(self, kind: str, key: str) -> Path:
        return self.root / kind / key[:2] / f"{key}{SUFFIXES.get(kind, '')}"

    def keep(self, kind: str, key: str) -> None:
        """Count the entry as used by this build (``evict`` keeps it) without reading it: a value the caller
        still holds in memory."""
        self.used.add(self.path(kind, key))

    def get(self, kind: str, key: str) -> bytes | None:
        """The stored value, or None."""
        path = self.path(kind, key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        self.used.add(path)
        return data

    def put(self, kind: str, key: str, data: bytes | str) -> None:
        """Store ``data`` (a cache: a failed write is ignored)."""
        path = self.path(kind, key)
        self.used.add(path)
        try:
            write_atomic(path, data)
        except OSError:
            pass

    def get_json(self, kind: str, key: str):
        data = self.get(kind, key)
        try:
            return None if data is None else json.loads(data)
        except ValueError:
            return None

    def put_json(self, kind: str, key: str, value) -> None:
        self.put(kind, key, json.dumps(value, ensure_ascii=False))

    def evict(self, keep_s: float = KEEP_S, now: float | None = None) -> int:
        """Remove the entries of every kind this build did not use that are older than ``keep_s`` seconds
        (by modification time; hidden files, such as an atomic write's temporary, are left); returns how
        many. Every change of the environment leaves a whole site of unused entries, so without this the
        folder grows with every edit of the build code."""
        now = time.time() if now is None else now
        removed = 0
        for path in (p for kind in [*SUFFIXES, *RETIRED] for p in self.root.glob(f"{kind}/??/*")):
            if path in self.used or path.name.startswith("."):
                continue
            try:
                if now - path.stat().st_mtime > keep_s:
                    path.unlink()
                    removed += 1
            except OSError:
                continue
        return removed
