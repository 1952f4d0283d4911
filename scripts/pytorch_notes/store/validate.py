"""Check a store captured on the GPU before it is proposed as a pull request.

Run by the ``capture`` workflow (``.github/workflows/capture.yml``) on the records that the GPU
shards produced with ``python3 scripts/capture.py --force --shard K/N``, merged::

    python3 scripts/validate_outputs.py [--examples DIR] [--store DIR] [--summary FILE.md]

Every example ``examples/<chapter>/<name>.py`` must have a CUDA record ``<store>/<chapter>/<name>/cuda.json``
(format and layout in ``store/model.py`` and ``store/layout.py``) that

* loads through the typed model (``records.load_record``; a wrong shape names the file and field);
* belongs to the example and is fresh: its ``key`` equals what the example executes now;
* comes from a run that finished: a record is written only for a run with status ``ok``, and a
  failed run leaves ``cuda.failed.json``, so such a marker is an error;
* has non-zero durations (``provenance.duration_s`` and ``wall_s``, seconds);
* is honest about its device: ``device_kind`` ``cuda``, a ``cuda`` version, and a device name that
  is not ``CPU``; and CPU records in the store never claim a GPU (``provenance_problems``);
* shows no absolute path in a traceback (``machine_paths``);
* says how the run was isolated (``provenance.isolation``), and holds nothing the capture would not
  have stored: no control characters, nothing past the bounds of ``execute/limits.py``
  (``untrusted.clean_record`` leaves it as it is). A record written by hand, or by a capture that was
  tampered with, fails here.

Each problem is printed as ``<file>: <what is wrong>``; the exit status is 1 if there is any.
``--summary`` writes a Markdown table of the devices and versions, used as the pull request's body.
Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.parse import Example, ExampleError, code_key, discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, display_path
from pytorch_notes.store import layout
from pytorch_notes.store.model import DEVICE_KINDS, Error, Record
from pytorch_notes.store.records import StoreError, device_kinds, load_failure, load_record
from pytorch_notes.store.untrusted import clean_record, log_text


@dataclass
class Report:
    """What validation found.

    Attributes:
        problems: one line per problem, each starting with the file it is about.
        records: the valid CUDA records, keyed by example id (``"autograd/leaf.py"``).
    """

    problems: list[str] = field(default_factory=list)
    records: dict[str, Record] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


_ABSOLUTE_FRAME = re.compile(r'^  File "(/[^"]*)"', re.M)


def machine_paths(record: Record) -> list[str]:
    """The absolute file paths that the tracebacks of ``record`` show, in order (empty when none)."""
    found = []
    for cell in record.cells:
        for out in cell.outputs:
            if isinstance(out, Error):
                found += _ABSOLUTE_FRAME.findall(out.traceback)
    return found


def provenance_problems(record: Record) -> list[str]:
    """What is dishonest in a record's provenance: a CUDA record must name a GPU and a CUDA version,
    a CPU record must not name either (``execute/runner.py`` writes them as the machine reports)."""
    p = record.provenance
    problems = []
    if p.device_kind != record.device_kind:
        problems.append(f"provenance says {p.device_kind!r} but the record is the {record.device_kind!r} one")
    if record.device_kind == "cuda":
        if not p.cuda:
            problems.append("a CUDA record without a CUDA version")
        if not p.device or p.device.upper() == "CPU":
            problems.append(f"a CUDA record whose device is {p.device!r}, not a GPU name")
    else:
        if p.cuda or p.driver:
            problems.append(f"a CPU record that names CUDA {p.cuda!r} / driver {p.driver!r}")
        if p.device != "CPU":
            problems.append(f"a CPU record whose device is {p.device!r}")
    return problems


def cell_problems(record: Record, example: Example) -> list[str]:
    """Where a fresh record's cells disagree with the example: their number, index or key, or a cell whose
    stored source does not have the key it claims (``parse.code_key``): a record's cells are what the
    capture ran, never code written into the file afterwards."""
    if record.key != example.key:
        return []  # stale: reported as such
    if [(c.index, c.key) for c in record.cells] != [(c.index, c.key) for c in example.cells]:
        return ["its cells are not the example's (number, order or keys differ from examples/" + example.rel + ")"]
    return [f"cell {c.index + 1}: its source does not have the key it claims (edited after the capture)"
            for c in record.cells if code_key(c.source, c.metadata) != c.key]


def record_problems(path: Path, rel: str, record: Record, example: Example) -> list[str]:
    """What is wrong with ``record``, the record of example ``rel`` (parsed: ``example``) found at ``path``
    (only named, each line starts with it): everything above, in the checks' order; empty when it is good.
    ``make gpu-unpack`` checks an archive's records with it before any is written."""
    key = example.key
    name = display_path(path)
    problems = [f"{name}: {why}" for why in provenance_problems(record)]
    if record.example != rel:
        problems.append(f"{name}: record is for {record.example!r}, expected {rel!r}")
    if record.key != key:
        problems.append(f"{name}: stale: captured from another version of examples/{rel} (its code changed)")
    for what, value in (("duration_s", record.provenance.duration_s), ("wall_s", record.provenance.wall_s)):
        if value <= 0:
            problems.append(f"{name}: provenance {what} is {value!r}, expected a duration > 0 s "
                            "(it did not really run)")
    if not record.cells:
        problems.append(f"{name}: no cells recorded")
    elif paths := machine_paths(record):
        problems.append(f"{name}: a traceback shows the capturing machine's path {paths[0]!r}; re-capture")
    if not record.provenance.isolation:
        problems.append(f"{name}: provenance does not say how the run was isolated (a capture older than the "
                        "sandbox); re-capture")
    problems += [f"{name}: {why}" for why in cell_problems(record, example)]
    if clean_record(record) != record:
        problems.append(f"{name}: holds text or figures the capture does not store (control characters, or more "
                        "than execute/limits.py allows): it was not written by `make capture`; re-capture")
    return problems


def validate(examples_dir: Path = EXAMPLES_DIR, store_dir: Path | None = None, kind: str = "cuda") -> Report:
    """Check that every example of ``examples_dir`` that can run on device ``kind`` (a CUDA-only one has no
    CPU record) has a good, fresh record of that kind.

    Args:
        examples_dir: folder of the example scripts, ``<chapter>/<name>.py``.
        store_dir: folder of the records, named ``_outputs`` (default ``<examples_dir>/_outputs``), e.g.
            the merged download of the GPU shards.
        kind: the device kind required, ``"cuda"`` for the GPU workflow.

    Returns:
        A :class:`Report`; ``report.ok`` is True when every example has a good record.

    Raises:
        ValueError: ``store_dir`` is not named ``_outputs``.
    """
    examples_dir = Path(examples_dir).resolve()
    report = Report()
    examples = discover_examples(examples_dir)
    if not examples:
        report.problems.append(f"{display_path(examples_dir)}: no examples found")
    if store_dir is not None and Path(store_dir).name != layout.STORE_DIRNAME:
        raise ValueError(f"{store_dir}: a store folder must be named {layout.STORE_DIRNAME}")
    root = examples_dir if store_dir is None else Path(store_dir).resolve().parent  # layout: <root>/_outputs
    for path in examples:
        rel = path.relative_to(examples_dir).as_posix()
        record_file = layout.record_path(rel, kind, root)
        try:
            example = parse_example(path, examples_dir)
            if kind not in device_kinds(example):
                continue  # a CUDA-only example has no CPU record
            failure = load_failure(rel, kind, root)
            record = load_record(rel, kind, root)
        except (ExampleError, StoreError) as exc:
            report.problems.append(str(exc))
            continue
        if failure is not None:
            report.problems.append(f"{display_path(layout.failure_path(rel, kind, root))}: the last run "
                                   f"failed ({failure.status} at {failure.location}: {failure.message})")
        if record is None:
            report.problems.append(f"{display_path(record_file)}: missing: no {kind} record for examples/{rel}")
            continue
        problems = record_problems(record_file, rel, record, example)
        report.problems.extend(problems)
        if not problems:
            report.records[rel] = record
    for f in layout.stored_files(root):
        if f.kind and not f.failure:
            try:
                rec = load_record(f.rel, f.kind, root)
            except StoreError:
                continue
            if rec is not None and f.kind != kind:
                report.problems += [f"{display_path(f.path)}: {why}" for why in provenance_problems(rec)]
    return report


def summary_markdown(report: Report) -> str:
    """A Markdown description of the records (devices, versions, total run time) for a pull request."""
    provs = [r.provenance for r in report.records.values()]
    setups = Counter((p.device, p.torch, p.cuda, p.driver, p.python, p.isolation) for p in provs)
    total = sum(p.duration_s for p in provs)
    lines = [f"Outputs of {len(provs)} examples, re-captured with `python3 scripts/capture.py --force` "
             f"on the self-hosted GPU runner and checked by `scripts/validate_outputs.py`.",
             "", "| device | torch | CUDA | driver | Python | isolation | examples |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    lines += [f"| {d} | {t} | {c} | {dr} | {py} | {iso} | {n} |"
              for (d, t, c, dr, py, iso), n in sorted(setups.items(), key=str)]
    lines += ["", f"Total run time of the examples: {total:.1f} s.", "",
              "The CPU records stay beside these: review the diff of `examples/_outputs/` like any change."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """The command line; returns the exit status (1 when a problem was found)."""
    ap = argparse.ArgumentParser(prog="validate_outputs.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=Path, default=EXAMPLES_DIR, help="examples folder (default: examples/)")
    ap.add_argument("--store", type=Path, default=None,
                    help="records folder named _outputs (default: <examples>/_outputs)")
    ap.add_argument("--summary", type=Path, default=None, help="write a Markdown summary to this file")
    ap.add_argument("--device", default="cuda", choices=DEVICE_KINDS, help="device kind required (default cuda)")
    args = ap.parse_args(argv)
    report = validate(args.examples, args.store, args.device)
    for line in report.problems:
        print(log_text(line), file=sys.stderr)
    if not report.ok:
        print(f"validate_outputs: {len(report.problems)} problem(s); the outputs are not proposed", file=sys.stderr)
        return 1
    if args.summary:
        args.summary.write_text(summary_markdown(report), encoding="utf-8")
    devices = sorted({r.provenance.device for r in report.records.values()})
    print(f"validate_outputs: {len(report.records)} {args.device} records OK, captured on {', '.join(devices)}")
    return 0
