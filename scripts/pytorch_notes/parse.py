"""Stage 1, parse: read an example script into cells and per-example facts (where examples are and
which files may be read: ``examplefiles.py``).

An example is a plain Python script in jupytext's *percent* format
(https://jupytext.readthedocs.io/en/latest/formats-scripts.html): each ``# %%`` line
starts a cell, optionally followed by cell metadata such as ``raises="RuntimeError"``
or ``volatile=true``. Per-example facts live in an optional header block in the
style of PEP 723 inline metadata (https://peps.python.org/pep-0723/), with TOML inside::

    # /// example
    # timeout = 120
    # requires = ["cuda"]
    # ///

An example holds no character on which Python and a reader's page, notebook or editor could disagree
(``characters.py``: invisible, bidi and line-breaking characters, anywhere in the file), and its lines
end where Python's tokenizer ends them (``\\n``, ``\\r\\n``, ``\\r``): the code shown is the code run.
This is the one place that reads an example's text; later stages get it from ``Example.text``.

This module uses the standard library only, so the capture step runs on a GPU machine
that has torch but no Jupyter stack.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.characters import first_refused, python_lines, python_newlines, refusal
from pytorch_notes.examplefiles import (  # re-exported: every stage imports them from here
    EXAMPLE_ID_PATTERN,
    NAME_PATTERN,
    NAME_RULE,
    ExampleError,
    check_example_id,
    discover_examples,
    discovered_id,
    example_file,
    resolve_example,
)
from pytorch_notes.filememo import file_memo
from pytorch_notes.settings import EXAMPLES_DIR

__all__ = ["EXAMPLE_ID_PATTERN", "NAME_PATTERN", "NAME_RULE", "Cell", "Example", "ExampleError", "check_example_id",
           "code_key", "discover_examples", "discovered_id", "example_file", "example_key", "parse_example",
           "resolve_example", "source_sha256"]

DEFAULT_TIMEOUT_S = 60.0
MAX_TIMEOUT_S = 3600.0  # an example of the course runs in seconds; "inf" or "nan" would never end
KNOWN_REQUIREMENTS = frozenset({"cuda"})
KNOWN_FACTS = frozenset({"timeout", "requires", "min_torch"})
_VERSION_RE = re.compile(r"^\d+\.\d+(\.\d+)?$")
# caption: of the cell's figures; caption_zh, caption_en: their alt text and caption on the pages of one language
# (render/html.py); warns: the warning categories its output prints (store/warns.py)
KNOWN_CELL_KEYS = frozenset({"raises", "volatile", "title", "tags", "caption", "caption_zh", "caption_en", "warns"})
# Options that describe a cell's output and change nothing it runs: left out of ``code_key``, so declaring a
# warning (``warns="UserWarning"``) keeps the records fresh (store/warns.py checks them against the outputs).
DESCRIPTIVE_CELL_KEYS = frozenset({"warns", "caption_zh", "caption_en"})
_WARNING_NAME_RE = re.compile(r"^[A-Z]\w*Warning$")

_CELL_RE = re.compile(r"^# %%(?P<rest>.*)$")
CELL_MARKER = _CELL_RE  # a line that starts a cell; the other stages read the syntax through this module
_HEADER_OPEN = "# /// example"
_HEADER_CLOSE = "# ///"
# One `key=value` pair of a jupytext cell header; the value is JSON (string, bool, number, list).
_META_RE = re.compile(r'\s*(?P<key>[A-Za-z_][\w-]*)=(?P<value>"(?:[^"\\]|\\.)*"|\[[^\]]*\]|\S+)')


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

    @property
    def warns(self) -> tuple[str, ...]:
        """Warning categories the cell is declared to print (``warns="UserWarning"`` or a list), in order."""
        value = self.metadata.get("warns", ())
        return (value,) if isinstance(value, str) else tuple(value)


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
        min_torch: the oldest torch it runs with, e.g. ``"2.12"`` (header ``min_torch = "2.12"``: an API
            new in that release), or "" for any; a capture with an older torch skips it with the reason.
        text: the file's text as checked (``checked_text``: ``\\n`` line ends, no refused character): what
            every later stage shows or hands out (the ``.py`` download); none reads the file again.
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
    min_torch: str = ""
    text: str = ""

    @property
    def needs_cuda(self) -> bool:
        return "cuda" in self.requires

    def runs_with_torch(self, version: str | None) -> bool:
        """Whether torch ``version`` (``"2.11.0+cu130"``) is at least ``min_torch``; True without one."""
        return not self.min_torch or version_tuple(version or "") >= version_tuple(self.min_torch)


def version_tuple(text: str) -> tuple[int, ...]:
    """``"2.11.0+cu130"`` -> ``(2, 11, 0)``; ``()`` when ``text`` starts with no version."""
    core = re.match(r"\d+(?:\.\d+)*", text)
    return tuple(int(x) for x in core.group(0).split(".")) if core else ()


def source_sha256(data: bytes) -> str:
    """SHA-256 hex digest of an example's bytes (the freshness key of stored outputs)."""
    return hashlib.sha256(data).hexdigest()


def code_key(source: str, metadata: dict) -> str:
    """Key of what a cell executes: SHA-256 (first 16 hex digits) of its options and its syntax tree.

    The tree is ``ast.dump`` without positions (Python's ``ast`` module), so comments, blank lines
    and formatting do not change the key, while any change to code or options does. The dump is the one
    Python 3.11 writes, on every Python that runs the capture (``canonical_dump``): a CPU record made with
    3.11 and a GPU record made with 3.12 of the same code have the same key.

    Raises:
        SyntaxError: ``source`` does not parse on its own.
    """
    tree = canonical_dump(ast.parse(source))
    metadata = {k: v for k, v in metadata.items() if k not in DESCRIPTIVE_CELL_KEYS}
    text = json.dumps([metadata, tree], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def canonical_dump(tree: ast.AST) -> str:
    """``ast.dump`` of ``tree`` as Python 3.11 writes it, whatever Python runs this (``code_key`` hashes it).
    Changes ``tree``: an empty ``type_params`` is deleted from its nodes.

    Python 3.12 added the field ``type_params`` to function and class definitions (PEP 695), and ``ast.dump``
    writes it even when empty; 3.13 leaves out empty lists and None unless ``show_empty=True``
    (https://docs.python.org/3/library/ast.html#ast.dump). An empty ``type_params`` is removed from the
    nodes (``ast.dump`` skips a field a node does not have) and empty values are shown, so that code without
    the new syntax dumps the same on 3.11, 3.12 and 3.13.
    """
    for node in ast.walk(tree):
        if getattr(node, "type_params", None) == []:
            del node.type_params
    options = {"show_empty": True} if sys.version_info >= (3, 13) else {}
    return ast.dump(tree, annotate_fields=True, include_attributes=False, **options)


def example_key(facts: dict, cell_keys: list[str]) -> str:
    """Key of what an example executes: its header facts (timeout, requires) and its cells' keys."""
    text = json.dumps([facts, cell_keys], sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def cell_options(source: str, path: Path | str = "<example>") -> list[tuple[int, dict]]:
    """``(line index, options)`` of each ``# %%`` marker line of an example's ``source``, 0-based, in order
    (``{}`` for a bare marker): how stages after parsing (the ``.py`` download, the chapter zips) find a
    cell and its options without a syntax of their own.

    Raises:
        ExampleError: a marker's options cannot be read (named with ``path`` and the 1-based line).
    """
    found = []
    for i, line in enumerate(python_lines(source)):
        if m := _CELL_RE.match(line):
            found.append((i, _parse_cell_header(Path(path), i + 1, m.group("rest"))))
    return found


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
    if "warns" in meta:
        names = [meta["warns"]] if isinstance(meta["warns"], str) else meta["warns"]
        if not (isinstance(names, list) and names and all(isinstance(n, str) and _WARNING_NAME_RE.match(n)
                                                          for n in names)):
            raise ExampleError(path, lineno, 'warns= takes a warning category or a list of them, e.g. '
                               'warns="UserWarning" or warns=["UserWarning", "FutureWarning"]')
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


def parse_example(path: Path | str, examples_dir: Path = EXAMPLES_DIR) -> Example:
    """Parse the example at ``path`` (``<examples_dir>/<chapter>/<name>.py``) once ``example_file`` accepts
    where it is. ``Example.rel`` is relative to ``examples_dir``; ``Example.path`` is a plain file in it.

    Raises:
        ExampleError: the file is not allowed (``example_file``), not UTF-8, holds a character Python and a
            reader could see differently (``checked_text``), has an unreadable header or
            cell options, a syntax error, no cells, or a name against ``NAME_RULE``; ``str()`` starts with
            ``file:line:``.

    Where the file is, is checked on every call; the parse is memoised per file while it is unchanged on
    disk (``filememo``): a build asks for each example many times.
    """
    return _parse_file(*example_file(path, examples_dir))


def checked_text(path: Path, text: str) -> str:
    """An example's decoded ``text`` as every later stage gets it (``Example.text``): without a byte order
    mark at its start (Python skips it), every line end ``\\n`` (Python reads ``\\r\\n`` and ``\\r`` the
    same), and checked to hold no character Python and a reader could see differently (``characters.py``).

    Raises:
        ExampleError: at the first refused character, anywhere in the file (comments and strings too),
            naming its line, column, code point and name.
    """
    text = python_newlines(text.removeprefix("\ufeff"))
    if found := first_refused(text):
        line, column, ch = found
        raise ExampleError(path, line, refusal(ch, column))
    return text


@file_memo(persist="examples")
def _parse_file(path: Path, rel: str) -> Example:
    try:  # O_NOFOLLOW: a link put in the file's place since the check is not followed
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), "rb") as fh:
            data = fh.read()
    except OSError as exc:
        raise ExampleError(path, 1, f"cannot be read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ExampleError(path, data[:exc.start].count(b"\n") + 1, f"not UTF-8: byte 0x{data[exc.start]:02x} "
                           f"cannot be decoded ({exc.reason}); save the file as UTF-8") from None
    text = checked_text(path, text)
    lines = python_lines(text)
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
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_TIMEOUT_S:
        raise ExampleError(path, 2, f"timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT_S:g}, "
                                    f"got {timeout!r}")
    requires = facts.get("requires", [])
    if isinstance(requires, str):
        requires = [requires]
    if not set(requires) <= KNOWN_REQUIREMENTS:
        raise ExampleError(path, 2, f"requires: unknown {sorted(set(requires) - KNOWN_REQUIREMENTS)}; "
                           f"known: {sorted(KNOWN_REQUIREMENTS)}")
    min_torch = facts.get("min_torch", "")
    if not isinstance(min_torch, str) or (min_torch and not _VERSION_RE.match(min_torch)):
        raise ExampleError(path, 2, f'min_torch must be a version such as "2.12", got {min_torch!r}')
    if problem := check_example_id(rel):
        raise ExampleError(path, 1, problem)
    facts = {"timeout": float(timeout), "requires": sorted(requires)} | ({"min_torch": min_torch} if min_torch else {})
    key = example_key(facts, [c.key for c in cells])
    return Example(path, rel, tuple(cells), float(timeout), frozenset(requires), source_sha256(data), key, min_torch,
                   text)


