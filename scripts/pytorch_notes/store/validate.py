"""Check an output store captured on the GPU before it is proposed as a pull request.

Run by the ``capture`` workflow (``.github/workflows/capture.yml``) on the outputs that the
self-hosted GPU runner produced with ``python3 scripts/capture.py --force``::

    python3 scripts/validate_outputs.py [--examples DIR] [--store DIR] [--summary FILE.md]

Every example ``examples/<chapter>/<name>.py`` must have a record
``<store>/<chapter>/<name>.json`` (format in ``scripts/store.py``) that

* belongs to it (``example`` field) and to its current source (``source_sha256``);
* comes from a run that finished: ``store.save_success`` writes a record only for a run with
  status ``ok`` (every cell ran, process exit 0), and a failed run leaves
  ``<name>.failed.json`` with its status, so any such marker is an error;
* has non-zero durations (``provenance.duration_s`` and ``wall_s``, seconds): zero means the
  example did not really run;
* names a GPU: ``provenance.device_kind`` is ``"cuda"`` (``runner.provenance``);
* shows no absolute path in a traceback (``machine_paths``): ``runner.frame_path`` writes the
  frames of the repository, installed packages and the standard library without the machine's
  directories, so an absolute path means an old runner or a file from outside those.

Each problem is printed as ``<file>: <what is wrong>``; the exit status is 1 if there is any.
``--summary`` writes a Markdown table of the devices and versions, used as the pull request's
body. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.parse import discover_examples, source_sha256
from pytorch_notes.settings import EXAMPLES_DIR, display_path

STORE_FORMAT = 1  # store.FORMAT (not imported: store.py imports the execute stage)
FAILED_SUFFIX = ".failed.json"


@dataclass
class Report:
    """What validation found.

    Attributes:
        problems: one line per problem, each starting with the file it is about.
        records: the valid records, keyed by example id (``"autograd/leaf.py"``).
    """

    problems: list[str] = field(default_factory=list)
    records: dict[str, dict] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


_ABSOLUTE_FRAME = re.compile(r'^  File "(/[^"]*)"', re.M)


def machine_paths(record: dict) -> list[str]:
    """The absolute file paths that the tracebacks of ``record`` (a store record) show, in order.

    Empty for a record captured by the current runner from files in the repository, installed
    packages or the standard library (``runner.frame_path``).
    """
    found = []
    cells = [c for c in record.get("cells") or [] if isinstance(c, dict)]
    for cell in cells:
        for out in cell.get("outputs") or []:
            if isinstance(out, dict) and out.get("type") == "error":
                found += _ABSOLUTE_FRAME.findall(out.get("traceback") or "")
    return found


def _check_record(path: Path, rel: str, record: object, sha: str) -> list[str]:
    """Problems of one parsed record (empty when it is a good GPU capture of the current source)."""
    name = display_path(path)
    if not isinstance(record, dict) or record.get("format") != STORE_FORMAT:
        return [f"{name}: not an output record (expected a JSON object with \"format\": {STORE_FORMAT})"]
    problems = []
    if record.get("example") != rel:
        problems.append(f"{name}: record is for {record.get('example')!r}, expected {rel!r}")
    if record.get("source_sha256") != sha:
        problems.append(f"{name}: stale: captured from another version of examples/{rel} "
                        f"(source_sha256 does not match the file)")
    prov = record.get("provenance")
    if not isinstance(prov, dict):
        return [*problems, f"{name}: no provenance"]
    for key in ("duration_s", "wall_s"):
        value = prov.get(key)
        if not isinstance(value, int | float) or value <= 0:
            problems.append(f"{name}: provenance {key} is {value!r}, expected a duration > 0 s "
                            f"(the example did not really run)")
    if prov.get("device_kind") != "cuda":
        problems.append(f"{name}: captured on {prov.get('device')!r} (device_kind {prov.get('device_kind')!r}), "
                        f"expected a GPU (device_kind 'cuda'): was capture.py run on the GPU runner?")
    if not isinstance(record.get("cells"), list) or not record["cells"]:
        problems.append(f"{name}: no cells recorded")
    elif paths := machine_paths(record):
        problems.append(f"{name}: a traceback shows the capturing machine's path {paths[0]!r}; "
                        f"re-capture with the current scripts/runner.py")
    return problems


def validate(examples_dir: Path = EXAMPLES_DIR, store_dir: Path | None = None) -> Report:
    """Check the store ``store_dir`` (default ``<examples_dir>/_outputs``) against ``examples_dir``.

    Args:
        examples_dir: folder of the example scripts, ``<chapter>/<name>.py``.
        store_dir: folder of the records, ``<chapter>/<name>.json``.

    Returns:
        A :class:`Report`; ``report.ok`` is True when every example has a good GPU record.
    """
    examples_dir = Path(examples_dir)
    store_dir = Path(store_dir) if store_dir is not None else examples_dir / "_outputs"
    report = Report()
    examples = discover_examples(examples_dir)
    if not examples:
        report.problems.append(f"{display_path(examples_dir)}: no examples found")
    for path in examples:
        rel = path.relative_to(examples_dir.resolve()).as_posix()
        record_path = store_dir / (rel[: -len(".py")] + ".json")
        failed_path = store_dir / (rel[: -len(".py")] + FAILED_SUFFIX)
        if failed_path.exists():
            report.problems.append(_failure_line(failed_path))
        if not record_path.is_file():
            report.problems.append(f"{display_path(record_path)}: missing: no record for examples/{rel} "
                                   f"(not captured, or its capture failed)")
            continue
        try:
            record = json.loads(record_path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            report.problems.append(f"{display_path(record_path)}: unreadable JSON ({exc})")
            continue
        problems = _check_record(record_path, rel, record, source_sha256(path.read_bytes()))
        report.problems.extend(problems)
        if not problems:
            report.records[rel] = record
    return report


def _failure_line(path: Path) -> str:
    try:
        marker = json.loads(path.read_text(encoding="utf-8"))
        why = f"status {marker.get('status')!r} at {marker.get('location')}: {marker.get('message')}"
    except (ValueError, UnicodeDecodeError, AttributeError):
        why = "unreadable failure marker"
    return f"{display_path(path)}: the last run failed ({why})"


def summary_markdown(report: Report) -> str:
    """A Markdown description of the records (devices, versions, total run time) for a pull request."""
    provs = [r["provenance"] for r in report.records.values()]
    setups = Counter((p.get("device"), p.get("torch"), p.get("cuda"), p.get("python")) for p in provs)
    total = sum(p.get("duration_s", 0) for p in provs)
    lines = [f"Outputs of {len(provs)} examples, re-captured with `python3 scripts/capture.py --force` "
             f"on the self-hosted GPU runner and checked by `scripts/validate_outputs.py`.",
             "", "| device | torch | CUDA | Python | examples |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {d} | {t} | {c} | {py} | {n} |" for (d, t, c, py), n in sorted(setups.items(), key=str)]
    lines += ["", f"Total run time of the examples: {total:.1f} s.", "",
              "Review the diff of `examples/_outputs/` like any change: outputs that differ from the CPU run "
              "by more than device names and timings may point at a device-dependent example."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="validate_outputs.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--examples", type=Path, default=EXAMPLES_DIR, help="examples folder (default: examples/)")
    ap.add_argument("--store", type=Path, default=None, help="records folder (default: <examples>/_outputs)")
    ap.add_argument("--summary", type=Path, default=None, help="write a Markdown summary to this file")
    args = ap.parse_args(argv)
    report = validate(args.examples, args.store)
    for line in report.problems:
        print(line, file=sys.stderr)
    if not report.ok:
        print(f"validate_outputs: {len(report.problems)} problem(s); the outputs are not proposed", file=sys.stderr)
        return 1
    if args.summary:
        args.summary.write_text(summary_markdown(report), encoding="utf-8")
    devices = sorted({r["provenance"].get("device") for r in report.records.values()})
    print(f"validate_outputs: {len(report.records)} records OK, captured on {', '.join(map(str, devices))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
