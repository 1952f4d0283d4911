"""Stage 1, discover and parse: read an example script into cells and per-example facts.

An example is a plain Python script in jupytext's *percent* format
(https://jupytext.readthedocs.io/en/latest/formats-scripts.html): each ``# %%`` line
starts a cell, optionally followed by cell metadata such as ``raises="RuntimeError"``
or ``volatile=true``. Per-example facts live in an optional header block in the
style of PEP 723 inline metadata (https://peps.python.org/pep-0723/), with TOML inside::

    # /// example
    # timeout = 120
    # requires = ["cuda"]
    # ///

This module uses the standard library only, so the capture step runs on a GPU machine
that has torch but no Jupyter stack.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.filememo import file_memo
from pytorch_notes.settings import EXAMPLES_DIR, display_path

DEFAULT_TIMEOUT_S = 60.0
KNOWN_REQUIREMENTS = frozenset({"cuda"})
KNOWN_FACTS = frozenset({"timeout", "requires"})
KNOWN_CELL_KEYS = frozenset({"raises", "volatile", "title", "tags", "caption"})  # caption: of the cell's figures

# The one rule for example names, used by capture, the embed syntax and the error messages:
# examples/<chapter>/<name>.py with chapter and name in lowercase ASCII letters, digits, "_" and "-",
# starting with a letter or digit (so that ids, URLs and file names need no escaping).
NAME_PATTERN = r"[a-z0-9][a-z0-9_-]*"
EXAMPLE_ID_PATTERN = rf"{NAME_PATTERN}/{NAME_PATTERN}\.py"
NAME_RULE = ("an example is examples/<chapter>/<name>.py, where <chapter> and <name> use only lowercase "
             "letters a-z, digits 0-9, '_' and '-', and start with a letter or digit")
_EXAMPLE_ID_RE = re.compile(rf"^{EXAMPLE_ID_PATTERN}$")

_CELL_RE = re.compile(r"^# %%(?P<rest>.*)$")
_HEADER_OPEN = "# /// example"
_HEADER_CLOSE = "# ///"
# One `key=value` pair of a jupytext cell header; the value is JSON (string, bool, number, list).
_META_RE = re.compile(r'\s*(?P<key>[A-Za-z_][\w-]*)=(?P<value>"(?:[^"\\]|\\.)*"|\[[^\]]*\]|\S+)')


class ExampleError(ValueError):
    """An example file is malformed. ``str()`` starts with ``path:line:``."""

    def __init__(self, path: Path | str, line: int, message: str):
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{display_path(self.path)}:{line}: {message}")


@dataclass(frozen=True)
class Cell:
    """One ``# %%`` cell.

    Attributes:
        index: 0-based position among the example's cells.
        line: 1-based line number in the file of the cell's first source line.
        source: the cell's code, without the ``# %%`` line and trailing blank lines.
        metadata: parsed header options, e.g. ``{"raises": "RuntimeError"}``.
        key: what this cell executes (``code_key``): equal for two sources that differ only in
            comments, blank lines or formatting.
    """

    index: int
    line: int
    source: str
    metadata: dict = field(default_factory=dict)
    key: str = ""

    @property
    def raises(self) -> str | None:
        """Name of the exception class this cell is declared to raise, or None."""
        return self.metadata.get("raises")

    @property
    def volatile(self) -> bool:
        """True if the cell's output legitimately differs between runs (timings)."""
        return bool(self.metadata.get("volatile", False))


@dataclass(frozen=True)
class Example:
    """A parsed example script.

    Attributes:
        path: absolute path of the ``.py`` file.
        rel: path relative to ``examples/`` with forward slashes, e.g. ``"autograd/leaf.py"``;
            this is the identifier pages use to embed it.
        cells: the code cells, in file order (the header block is not a cell).
        timeout_s: wall-clock limit for one run, seconds.
        requires: hardware the example needs, a subset of ``{"cuda"}``.
        sha256: hex digest of the file's bytes (shown in provenance; not the freshness key).
        key: what the example executes: its header facts and each cell's ``key``. Stored
            outputs are fresh when their key equals it (``store``), so editing a comment keeps
            them fresh and any change to code, cell options or the header makes them stale.
    """

    path: Path
    rel: str
    cells: tuple[Cell, ...]
    timeout_s: float
    requires: frozenset[str]
    sha256: str
    key: str = ""

    @property
    def needs_cuda(self) -> bool:
        return "cuda" in self.requires


def source_sha256(data: bytes) -> str:
    """SHA-256 hex digest of an example's bytes (the freshness key of stored outputs)."""
    return hashlib.sha256(data).hexdigest()


def code_key(source: str, metadata: dict) -> str:
    """Key of what a cell executes: SHA-256 (first 16 hex digits) of its options and its syntax tree.

    The tree is ``ast.dump`` without positions (Python's ``ast`` module), so comments, blank lines
    and formatting do not change the key, while any change to code or options does.

    Raises:
        SyntaxError: ``source`` does not parse on its own.
    """
    tree = ast.dump(ast.parse(source), annotate_fields=True, include_attributes=False)
    text = json.dumps([metadata, tree], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def example_key(facts: dict, cell_keys: list[str]) -> str:
    """Key of what an example executes: its header facts (timeout, requires) and its cells' keys."""
    text = json.dumps([facts, cell_keys], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def check_example_id(rel: str) -> str | None:
    """None when ``rel`` (e.g. ``"autograd/leaf.py"``) follows ``NAME_RULE``, else a message saying why not."""
    if _EXAMPLE_ID_RE.match(rel):
        return None
    return f"{rel!r} is not a valid example name: {NAME_RULE}"


def _parse_cell_header(path: Path, lineno: int, rest: str) -> dict:
    rest = rest.strip()
    meta: dict = {}
    pos = 0
    while pos < len(rest):
        m = _META_RE.match(rest, pos)
        if not m:
            raise ExampleError(
                path, lineno, f"cannot read cell options {rest[pos:]!r}; expected key=value pairs "
                'with JSON values, e.g. `# %% raises="RuntimeError"` or `# %% volatile=true`'
            )
        key, raw = m.group("key"), m.group("value")
        try:
            meta[key] = json.loads(raw)
        except json.JSONDecodeError:
            raise ExampleError(path, lineno, f"cell option {key}={raw}: value is not JSON "
                               '(strings need double quotes: raises="RuntimeError")') from None
        if key not in KNOWN_CELL_KEYS:
            raise ExampleError(path, lineno, f"unknown cell option {key!r}; known: "
                               f"{', '.join(sorted(KNOWN_CELL_KEYS))}")
        pos = m.end()
    if "raises" in meta and not (isinstance(meta["raises"], str) and meta["raises"].isidentifier()):
        raise ExampleError(path, lineno, 'raises= takes an exception class name, e.g. raises="TypeError"')
    return meta


def _parse_header(path: Path, lines: list[str]) -> tuple[dict, int]:
    """Return (facts, number of lines the header occupies)."""
    if not lines or lines[0].rstrip() != _HEADER_OPEN:
        return {}, 0
    body = []
    for i, line in enumerate(lines[1:], start=2):
        if line.rstrip() == _HEADER_CLOSE:
            break
        if not line.startswith("#") or _CELL_RE.match(line):
            raise ExampleError(path, 1, f"`# /// example` header is not closed: add a `# ///` line before line {i}")
        body.append(line[2:] if line.startswith("# ") else line[1:])
    else:
        raise ExampleError(path, 1, "`# /// example` header is not closed by a `# ///` line")
    try:
        facts = tomllib.loads("\n".join(body))
    except tomllib.TOMLDecodeError as exc:
        raise ExampleError(path, 2, f"header is not valid TOML: {exc}") from None
    unknown = set(facts) - KNOWN_FACTS
    if unknown:
        raise ExampleError(path, 2, f"unknown header key(s) {sorted(unknown)}; known: {sorted(KNOWN_FACTS)}")
    return facts, len(body) + 2


@file_memo(persist="examples")
def parse_example(path: Path | str, examples_dir: Path = EXAMPLES_DIR) -> Example:
    """Parse one example script.

    Args:
        path: the ``.py`` file.
        examples_dir: the root that ``Example.rel`` is relative to.

    Returns:
        The parsed :class:`Example`.

    Raises:
        ExampleError: unreadable header or cell options, a syntax error, or no cells;
            the message starts with ``file:line:``.

    Memoised per file while it is unchanged on disk (``filememo``): a build asks for each example many times.
    """
    path = Path(path).resolve()
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExampleError(path, 1, f"not UTF-8: {exc}") from None
    lines = text.splitlines()
    facts, skip = _parse_header(path, lines)
    try:
        ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        raise ExampleError(path, exc.lineno or 1, f"SyntaxError: {exc.msg}") from None

    cells: list[Cell] = []
    current: list[str] | None = None
    start, meta = 0, {}

    def flush() -> None:
        if current is None:
            return
        body = list(current)
        while body and not body[-1].strip():
            body.pop()
        lead = 0
        while lead < len(body) and not body[lead].strip():
            lead += 1
        if body[lead:]:
            source = "\n".join(body[lead:])
            try:
                key = code_key(source, meta)
            except SyntaxError as exc:
                line = start + lead + (exc.lineno or 1) - 1
                raise ExampleError(path, line, f"SyntaxError in this cell on its own: {exc.msg} "
                                   "(each `# %%` cell must be complete Python by itself)") from None
            cells.append(Cell(len(cells), start + lead, source, meta, key))

    for i, line in enumerate(lines[skip:], start=skip + 1):
        m = _CELL_RE.match(line)
        if m:
            flush()
            current, start, meta = [], i + 1, _parse_cell_header(path, i, m.group("rest"))
        elif current is None:
            if line.strip():  # code before the first `# %%` forms an implicit first cell
                current, start, meta = [line], i, {}
        else:
            current.append(line)
    flush()
    if not cells:
        raise ExampleError(path, 1, "no code cells: start cells with a `# %%` line")

    timeout = facts.get("timeout", DEFAULT_TIMEOUT_S)
    if not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ExampleError(path, 2, f"timeout must be a positive number of seconds, got {timeout!r}")
    requires = facts.get("requires", [])
    if isinstance(requires, str):
        requires = [requires]
    if not set(requires) <= KNOWN_REQUIREMENTS:
        raise ExampleError(path, 2, f"requires: unknown {sorted(set(requires) - KNOWN_REQUIREMENTS)}; "
                           f"known: {sorted(KNOWN_REQUIREMENTS)}")
    try:
        rel = path.relative_to(Path(examples_dir).resolve()).as_posix()
    except ValueError:
        rel = path.name
    else:
        if problem := check_example_id(rel):
            raise ExampleError(path, 1, problem)
    facts = {"timeout": float(timeout), "requires": sorted(requires)}
    key = example_key(facts, [c.key for c in cells])
    return Example(path, rel, tuple(cells), float(timeout), frozenset(requires), source_sha256(data), key)


def discover_examples(examples_dir: Path = EXAMPLES_DIR) -> list[Path]:
    """All example scripts: ``examples/<chapter>/<name>.py``, sorted; ``_``/``.`` dirs skipped."""
    found = []
    for p in sorted(Path(examples_dir).glob("*/*.py")):
        if not p.parent.name.startswith(("_", ".")) and not p.name.startswith("_"):
            found.append(p.resolve())
    return found


@functools.lru_cache(maxsize=4096)  # a build asks ~1,000 times; each resolve is a few system calls
def resolve_example(rel: str, examples_dir: Path = EXAMPLES_DIR) -> Path:
    """Map an embed identifier such as ``"autograd/leaf.py"`` to its file (may not exist)."""
    return (Path(examples_dir) / rel).resolve()
