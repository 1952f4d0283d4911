"""The record format, owned here: typed dataclasses for what one capture of an example stores.

A *record* is one successful run of one example on one kind of device; a *failure* marks a
re-capture that failed (the last good record stays). The dataclasses below are the single
definition of the format: ``load`` checks a JSON document against them (naming the field that is
wrong), ``dump`` writes them, and ``json_schema`` derives a JSON Schema from them for other tools
(checked into ``record.schema.json`` beside this file; a test keeps the two equal).

Format history (``FORMAT``; ``migrate.py`` upgrades committed files in place, never re-running an
example):

* 1: one ``<name>.json`` per example, freshness by the SHA-256 of the file's bytes.
* 2: one record per device kind (``<name>/cpu.json``, ``<name>/cuda.json``), freshness by the key of
  what executes (``parse.code_key``), provenance with the GPU driver and the imported libraries.

Standard library only.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, Union

FORMAT = 2
DeviceKind = Literal["cuda", "cpu"]
DEVICE_KINDS: tuple[str, ...] = typing.get_args(DeviceKind)  # order of preference when showing one record


class FormatError(ValueError):
    """A document does not match the record format; ``field`` is the JSON path, e.g. ``cells[2].outputs[0].text``."""

    def __init__(self, field_path: str, message: str):
        self.field, self.message = field_path, message
        super().__init__(f"{field_path or 'the document'}: {message}")


# --- outputs: one dataclass per kind, told apart by "type" -----------------------------------------------

@dataclass(frozen=True)
class Stream:
    """Text the cell wrote to standard output or standard error (file descriptors 1 and 2 included)."""

    name: Literal["stdout", "stderr"]
    text: str
    type: Literal["stream"] = "stream"


@dataclass(frozen=True)
class Display:
    """The value of a cell's trailing bare expression, as Jupyter shows it: MIME type -> text.

    ``data`` always has ``text/plain`` (the ``repr``); ``text/html`` when the value has ``_repr_html_``.
    """

    data: dict[str, str]
    type: Literal["display"] = "display"


@dataclass(frozen=True)
class Image:
    """A matplotlib figure the cell left open, as base64 PNG; ``width``/``height`` in CSS pixels;
    ``alt``: the figure's own title(s), empty when it has none (``execute.runner.figure_title``)."""

    mime: Literal["image/png"]
    data: str
    width: int
    height: int
    type: Literal["image"] = "image"
    alt: str = ""


@dataclass(frozen=True)
class Error:
    """An exception the cell raised: ``expected`` when the cell declares it (``# %% raises="..."``).

    ``line`` is the line of the example that raised; ``traceback`` shows no machine paths.
    """

    ename: str
    evalue: str
    traceback: str
    line: int
    expected: bool
    type: Literal["error"] = "error"


Output = Union[Stream, Display, Image, Error]  # noqa: UP007 - a runtime union the loader walks


# --- provenance, cells, records, failures --------------------------------------------------------------

@dataclass(frozen=True)
class Provenance:
    """Where and how a run happened, as the machine reported it.

    Attributes:
        device: ``"CPU"`` or the GPU's name (``torch.cuda.get_device_name(0)``).
        device_kind: ``"cpu"`` or ``"cuda"``.
        torch, cuda: ``torch.__version__`` and ``torch.version.cuda`` (None on a CPU build).
        python, platform: ``platform.python_version()`` and ``platform.platform(terse=True)``.
        captured_at: UTC, ISO 8601 (``2026-11-22T07:00:00Z``).
        duration_s: seconds from the first cell to the end; ``wall_s``: the whole process.
        driver: the NVIDIA driver version on a GPU (``/proc/driver/nvidia/version``), else None.
        libraries: versions of the third-party distributions the example imports, e.g. ``{"numpy": "2.3.1"}``.
        isolation: how the run was isolated (``execute/sandbox.py``): ``"bwrap 0.8.0"`` (the sandbox) or
            ``"supervised"`` (a supervised process and a check of the repository afterwards, where the
            sandbox cannot start); empty in records captured before the sandbox existed (2026-11-25).
    """

    device: str
    device_kind: DeviceKind
    torch: str | None
    cuda: str | None
    python: str
    platform: str
    captured_at: str
    duration_s: float
    wall_s: float
    driver: str | None = None
    libraries: dict[str, str] = field(default_factory=dict)
    isolation: str = ""


@dataclass(frozen=True)
class CellRecord:
    """One cell of a record: its code as it ran, what it showed, and how long it took (seconds)."""

    index: int
    line: int
    source: str
    metadata: dict[str, Any]
    key: str
    duration_s: float
    outputs: tuple[Output, ...]


@dataclass(frozen=True)
class Record:
    """The last good run of ``example`` (e.g. ``"autograd/leaf.py"``) on one ``device_kind``.

    It is fresh while ``key`` equals the example's current ``parse.Example.key``.
    """

    format: int
    example: str
    device_kind: DeviceKind
    key: str
    source_sha256: str
    provenance: Provenance
    cells: tuple[CellRecord, ...]


@dataclass(frozen=True)
class Failure:
    """A re-capture that failed on ``device_kind``; the last good ``Record`` is kept beside it.

    ``status`` is ``failed``, ``timeout``, ``crashed`` or ``cancelled``; ``location`` is ``file:line``.
    It concerns the source whose key is ``key``; it is outdated once the example changes.
    """

    format: int
    example: str
    device_kind: DeviceKind
    key: str
    source_sha256: str
    status: str
    location: str
    message: str
    captured_at: str
    provenance: Provenance | None


# --- loading and dumping ---------------------------------------------------------------------------------

@functools.cache  # get_type_hints evaluates every annotation string: most of a record's load time
def _hints(cls) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _convert(tp, value, path: str):  # noqa: C901 - one branch per kind of type, all small
    origin = typing.get_origin(tp)
    if tp is Any:
        return value
    if origin in (Union, types.UnionType):
        options = typing.get_args(tp)
        if value is None and type(None) in options:
            return None
        classes = [o for o in options if dataclasses.is_dataclass(o)]
        if classes and len(classes) == len([o for o in options if o is not type(None)]):
            if not isinstance(value, dict):
                raise FormatError(path, f"expected an object, got {type(value).__name__}")
            kinds = {_hints(c).get("type") and typing.get_args(_hints(c)["type"])[0]: c for c in classes}
            if len(classes) == 1:
                return _from_dict(classes[0], value, path)
            if value.get("type") not in kinds:
                raise FormatError(f"{path}.type", f"unknown kind {value.get('type')!r}; known: {sorted(kinds)}")
            return _from_dict(kinds[value["type"]], value, path)
        rest = [o for o in options if o is not type(None)]
        return _convert(rest[0], value, path)
    if origin is Literal:
        if value not in typing.get_args(tp):
            raise FormatError(path, f"expected one of {list(typing.get_args(tp))}, got {value!r}")
        return value
    if origin is tuple:
        if not isinstance(value, list):
            raise FormatError(path, f"expected a list, got {type(value).__name__}")
        item = typing.get_args(tp)[0]
        return tuple(_convert(item, v, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise FormatError(path, f"expected an object, got {type(value).__name__}")
        item = typing.get_args(tp)[1]
        return {str(k): _convert(item, v, f"{path}.{k}") for k, v in value.items()}
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise FormatError(path, f"expected an object, got {type(value).__name__}")
        return _from_dict(tp, value, path)
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise FormatError(path, f"expected a number, got {value!r}")
        return float(value)
    if tp in (str, int, bool):
        if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
            raise FormatError(path, f"expected {tp.__name__}, got {value!r}")
        return value
    raise TypeError(f"record format: unsupported type {tp!r} at {path}")  # a bug in this module


def _from_dict(cls, data: dict, path: str):
    hints = _hints(cls)
    unknown = set(data) - set(hints)
    if unknown:
        raise FormatError(path, f"unknown field(s) {sorted(unknown)} in {cls.__name__}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        where = f"{path}.{f.name}" if path else f.name
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise FormatError(where, f"missing (required in {cls.__name__})")
            continue
        kwargs[f.name] = _convert(hints[f.name], data[f.name], where)
    return cls(**kwargs)


T = typing.TypeVar("T")


def load(cls: type[T], data: object) -> T:
    """Build ``cls`` (``Record`` or ``Failure``) from parsed JSON, checking every field.

    Raises:
        FormatError: the document does not match; ``.field`` names the JSON path.
    """
    if not isinstance(data, dict):
        raise FormatError("", f"expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise FormatError("format", f"expected {FORMAT}, got {data.get('format')!r}")
    return _from_dict(cls, data, "")


def to_dict(obj) -> dict:
    """A record or failure as JSON-ready data (tuples become lists)."""
    return dataclasses.asdict(obj)


def dumps(obj) -> str:
    """Deterministic JSON text of a record or failure (sorted keys, one space indent, final newline)."""
    return json.dumps(to_dict(obj), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


# --- the JSON Schema, derived from the dataclasses ------------------------------------------------------

def _schema(tp, defs: dict) -> dict:  # noqa: C901
    origin = typing.get_origin(tp)
    if tp is Any:
        return {}
    if origin in (Union, types.UnionType):
        return {"anyOf": [_schema(o, defs) for o in typing.get_args(tp)]}
    if origin is Literal:
        return {"enum": list(typing.get_args(tp))}
    if origin is tuple:
        return {"type": "array", "items": _schema(typing.get_args(tp)[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _schema(typing.get_args(tp)[1], defs)}
    if tp is type(None):
        return {"type": "null"}
    if dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            hints = _hints(tp)
            fields = dataclasses.fields(tp)
            defs[name] = {
                "type": "object", "additionalProperties": False,
                "properties": {f.name: _schema(hints[f.name], defs) for f in fields},
                "required": [f.name for f in fields if f.default is dataclasses.MISSING
                             and f.default_factory is dataclasses.MISSING],
            }
            if (doc := (tp.__doc__ or "").strip().splitlines()):
                defs[name]["description"] = doc[0]
        return {"$ref": f"#/$defs/{name}"}
    return {"type": {str: "string", int: "integer", float: "number", bool: "boolean"}[tp]}


def json_schema() -> dict:
    """JSON Schema (draft 2020-12) of a record file and a failure file, derived from the dataclasses."""
    defs: dict = {}
    record, failure = _schema(Record, defs), _schema(Failure, defs)
    for name in ("Record", "Failure"):
        defs[name]["properties"]["format"] = {"const": FORMAT}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"PyTorch Notes output store, format {FORMAT}", "anyOf": [record, failure], "$defs": defs}


def load_outputs(data: object, path: str = "outputs") -> tuple[Output, ...]:
    """Typed outputs from the runner's JSON list (``execute/runner.py``). Raises FormatError."""
    return _convert(tuple[Output, ...], data, path)


def load_provenance(data: object, path: str = "provenance") -> Provenance:
    """Typed provenance from JSON data. Raises FormatError."""
    return _convert(Provenance, data, path)


if __name__ == "__main__":  # python -m pytorch_notes.store.model > scripts/pytorch_notes/store/record.schema.json
    print(json.dumps(json_schema(), indent=1, sort_keys=True))
