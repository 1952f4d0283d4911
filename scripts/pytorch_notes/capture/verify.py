"""``make verify-records BASE=<ref>``: the committed records of a change, checked by running it again.

A reviewer cannot read a record's JSON, so a change to ``examples/`` is verified instead (CI does it on
every pull request, ``.github/workflows/test.yml``):

* **What is checked** (``changed_files``, ``select``): the files under ``examples/`` that differ between
  the merge base of BASE and HEAD and the working tree (``git diff MERGE_BASE``, untracked files too). In
  CI's clean checkout that is exactly ``git diff BASE...HEAD``; on a contributor's machine it also covers
  what is not committed yet. An example file, its ``cpu.json`` or its ``cpu.failed.json`` selects the
  example; a changed ``cuda.json`` or ``cuda.failed.json`` needs a proof (below); a deleted record needs
  nothing; any other changed file in the store fails.
* **CPU records** are re-run through the capture itself (``capture.run.run_all``: the same sandbox,
  cleaning and store code as ``make capture``) into a temporary store, never the committed one, and
  compared cell by cell (``cell_problems``). Text is compared exactly, and so are figures (their PNG
  bytes, size and title): two honest captures on one machine were byte-identical in every
  non-volatile cell (CONTRIBUTING, "Verified records"). The lines of the example's own traceback frames
  count from their cell, so that comments added above a cell do not fail it. A cell declared
  ``volatile=true`` (part of the example's key) is compared by its structure: the kinds of its outputs,
  stream names, exception names, figures present. The provenance is not compared; it must be plausible
  for a CPU (``implausible``).
* **CUDA records** cannot be re-run here. With ``--cuda-proof attestation`` (CI), each added or changed
  one must carry a GitHub artifact attestation made by ``.github/workflows/capture.yml`` running from
  ``refs/heads/main`` of this repository on a GitHub-hosted runner (``gh attestation verify``); without
  it, every such change fails.

Exit status: 0 all verified, 1 a difference or an unproven record, 2 usage (BASE unknown, no git).
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pytorch_notes.capture.attest import cuda_problems
from pytorch_notes.capture.run import run_all
from pytorch_notes.execute.sandbox import SandboxError
from pytorch_notes.execute.supervise import Supervisor, host_device
from pytorch_notes.parse import DESCRIPTIVE_CELL_KEYS, Example, ExampleError, discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR
from pytorch_notes.store import layout
from pytorch_notes.store.model import CellRecord, Display, Error, Image, Output, Provenance, Record, Stream
from pytorch_notes.store.records import StoreError, load_failure, load_record
from pytorch_notes.store.untrusted import Secrets, log_text

DIFF_LINES = 12  # lines of one cell's diff in a failure message
STORE_NAME = re.compile(r"^(?P<ch>[^/]+)/(?P<name>[^/]+)/(?P<kind>cpu|cuda)(?P<failed>\.failed)?\.json$")


class VerifyError(RuntimeError):
    """BASE is not a commit here, or git cannot answer; the message says which and what to do."""


def _git(root: Path, *args: str) -> str:
    proc = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise VerifyError(f"git {' '.join(args)}: {(proc.stderr.strip() or 'failed').splitlines()[-1]}")
    return proc.stdout


def changed_files(base: str, examples_dir: Path = EXAMPLES_DIR) -> tuple[str, list[str]]:
    """(merge base, paths relative to ``examples_dir``) of the files under it that differ between the
    merge base of ``base`` and HEAD, and the working tree (untracked files included), each once, sorted.

    Raises:
        VerifyError: ``base`` is not a commit of this repository (fetch it), or git fails.
    """
    root = Path(examples_dir).resolve().parent
    if base.startswith("-") or not base:
        raise VerifyError(f"BASE={base!r}: expected a git ref, e.g. main or origin/main")
    try:
        _git(root, "rev-parse", "--verify", "--quiet", f"{base}^{{commit}}")
    except VerifyError:
        raise VerifyError(f"BASE={base}: not a commit in this repository (`git fetch origin {base}` first?)") from None
    merge_base = _git(root, "merge-base", base, "HEAD").strip()
    sub = Path(examples_dir).resolve().relative_to(root).as_posix()
    listed = _git(root, "diff", "--name-only", "-z", "--no-renames", "--relative", merge_base, "--", sub)
    listed += _git(root, "ls-files", "--others", "--exclude-standard", "-z", "--", sub)
    paths = {p.removeprefix(f"{sub}/") for p in listed.split("\0") if p}
    return merge_base, sorted(paths)


@dataclass
class Selection:
    """What a change asks to verify: ``examples`` (ids) to re-run on the CPU, ``cuda`` (store paths relative
    to the examples folder) of CUDA records or markers added or changed, ``failed_cpu`` (ids) whose
    ``cpu.failed.json`` changed, ``removed`` records, and ``problems`` found without running anything."""

    examples: list[str] = field(default_factory=list)
    cuda: list[str] = field(default_factory=list)
    failed_cpu: set[str] = field(default_factory=set)
    removed: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def select(paths: list[str], examples_dir: Path = EXAMPLES_DIR) -> Selection:
    """Sort the changed ``paths`` (relative to ``examples_dir``, ``changed_files``) into a ``Selection``."""
    found, every = Selection(), {p.relative_to(examples_dir).as_posix() for p in discover_examples(examples_dir)}
    chosen = set()
    for path in paths:
        here = (examples_dir / path).exists() or (examples_dir / path).is_symlink()
        if path in every:
            chosen.add(path)
        elif path.startswith(f"{layout.STORE_DIRNAME}/"):
            shown = f"examples/{path}"
            m = STORE_NAME.match(path.removeprefix(f"{layout.STORE_DIRNAME}/"))
            if not here:
                found.removed.append(shown)
            elif m is None:
                found.problems.append(f"{shown}: not a file of the store (<chapter>/<name>/cpu.json or cuda.json); "
                                      "records are written by `make capture` only")
            elif m["kind"] == "cuda":
                found.cuda.append(path)
            elif (rel := f"{m['ch']}/{m['name']}.py") not in every:
                found.problems.append(f"{shown}: a record of examples/{rel}, which does not exist")
            else:
                chosen.add(rel)
                if m["failed"]:
                    found.failed_cpu.add(rel)
    found.examples = sorted(chosen)
    return found


# --- comparing two records --------------------------------------------------------------------------

def _frames(text: str, rel: str, base: int) -> str:
    """``text`` with the line numbers of the example's own frames counted from line ``base`` (its cell)."""
    return re.sub(rf'(File "[^"]*{re.escape(rel)}", line )(\d+)', lambda m: f"{m[1]}+{int(m[2]) - base}", text)


def output_lines(out: Output, volatile: bool, rel: str = "", base: int = 0) -> list[str]:
    """One output as lines to compare: its structure only when ``volatile``, else all of it (text, values in
    every MIME type, exception and traceback, figure bytes, size and title). ``rel`` and ``base`` (the
    example's id and its cell's first line) make traceback lines relative to the cell (``_frames``)."""
    if isinstance(out, Stream):
        return [f"[{out.name}]"] if volatile else [f"[{out.name}] {ln}" for ln in out.text.split("\n")]
    if isinstance(out, Display):
        if volatile:
            return [f"[value {' '.join(sorted(out.data))}]"]
        return [f"[value {mime}] {ln}" for mime in sorted(out.data) for ln in out.data[mime].split("\n")]
    if isinstance(out, Error):
        head = f"[{'expected ' if out.expected else ''}error] {out.ename}"
        if volatile:
            return [head]
        return [f"{head}: {ln}" for ln in out.evalue.split("\n")] + [f"[error at cell line +{out.line - base}]"] + \
               [f"[traceback] {ln}" for ln in _frames(out.traceback, rel, base).split("\n")]
    if isinstance(out, Image):
        if volatile:
            return ["[figure]"]
        digest = hashlib.sha256(out.data.encode("ascii", "replace")).hexdigest()[:16]
        return [f"[figure {out.width}x{out.height} px, sha256 {digest}] {out.alt}"]
    raise TypeError(f"no comparison for output kind {type(out).__name__}")


def cell_problems(committed: Record, rerun: Record, where: str) -> list[str]:
    """One message per cell whose outputs differ between the ``committed`` record and the ``rerun`` one
    (the same example, same key): ``where``, the cell's number and line, and a short unified diff."""
    if len(committed.cells) != len(rerun.cells):
        return [f"{where}: the committed record has {len(committed.cells)} cell(s), the example {len(rerun.cells)}"]
    found = []
    for old, new in zip(committed.cells, rerun.cells, strict=True):
        volatile = bool(new.metadata.get("volatile"))
        options = [{k: v for k, v in c.metadata.items() if k not in DESCRIPTIVE_CELL_KEYS} for c in (old, new)]
        if old.key != new.key or options[0] != options[1]:
            found.append(f"{where}:{new.line}: cell {new.index + 1}: the committed record's code key or cell options "
                         f"differ from the example's ({old.key} {options[0]} != {new.key} {options[1]})")
        before, after = (_cell_lines(c, volatile, committed.example) for c in (old, new))
        if before != after:
            diff = [ln for ln in difflib.unified_diff(before, after, "committed", "re-run", lineterm="", n=1)][2:]
            more = [f"... {len(diff) - DIFF_LINES} more line(s)"] if len(diff) > DIFF_LINES else []
            what = "volatile, compared by structure" if volatile else "compared exactly"
            found.append(f"{where}:{new.line}: cell {new.index + 1} ({what}): the committed outputs differ from a "
                         "re-run in the sandbox\n" + "\n".join(diff[:DIFF_LINES] + more))
    return found


def _cell_lines(cell: CellRecord, volatile: bool, rel: str) -> list[str]:
    return [ln for out in cell.outputs for ln in output_lines(out, volatile, rel, cell.line)]


def implausible(prov: Provenance) -> str:
    """Why a ``cpu.json``'s provenance cannot be a capture on a CPU (a sentence), or "" when it can."""
    if prov.device != "CPU" or prov.cuda is not None or prov.driver is not None:
        return f"provenance says device {prov.device!r}, CUDA {prov.cuda!r}, driver {prov.driver!r} in a CPU record"
    if not re.fullmatch(r"bwrap \S+|supervised", prov.isolation):
        return f"provenance.isolation {prov.isolation!r} is neither `bwrap <version>` nor `supervised`"
    if not (prov.torch and prov.python and prov.platform):
        return "provenance lacks the torch or Python version or the platform"
    if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", prov.captured_at):
        return f"provenance.captured_at {prov.captured_at!r} is not a capture's UTC time"
    return ""


# --- the command ----------------------------------------------------------------------------------------

def verify_cpu(examples: list[Example], runs: Supervisor, jobs: int, examples_dir: Path, failed: set[str],
               keep: Path | None = None) -> list[str]:
    """Re-run ``examples`` (``runs``: a CPU supervisor) into a temporary store (``keep``: this folder, which
    then holds ``_outputs``) and compare each with its committed ``cpu.json``. Returns the problems."""
    problems, todo, committed = [], [], {}
    for ex in examples:
        where = f"examples/{layout.STORE_DIRNAME}/{ex.rel.removesuffix('.py')}/cpu.json"
        try:
            record = load_record(ex.rel, "cpu", examples_dir)
        except StoreError as exc:
            problems.append(str(exc))
            continue
        if record is None or record.key != ex.key:
            state = "no cpu.json" if record is None else "its cpu.json is of other code (stale)"
            problems.append(f"examples/{ex.rel}: {state}; run `make capture ARGS=examples/{ex.rel}` and commit it")
        elif why := implausible(record.provenance):
            problems.append(f"{where}: {why}")
        else:
            committed[ex.rel] = (record, where)
            todo.append(ex)
    with tempfile.TemporaryDirectory(prefix="pn-verify-") as tmp:
        store = Path(keep or tmp) / "examples"
        store.mkdir(parents=True, exist_ok=True)
        if todo:
            print(f"verify-records: re-running {len(todo)} example(s) on cpu into a temporary store")
            run_all(todo, jobs if runs.sandbox.bwrap else 1, runs, store, Secrets(os.environ))
        for ex in todo:
            record, where = committed[ex.rel]
            try:
                rerun, failure = load_record(ex.rel, "cpu", store), load_failure(ex.rel, "cpu", store)
            except StoreError as exc:
                problems.append(str(exc))
                continue
            if rerun is None:
                why = f"{failure.location}: {failure.message}" if failure else f"examples/{ex.rel}: did not run"
                problems.append(f"{why} (the re-run failed; the committed cpu.json says it ran)")
                continue
            problems += cell_problems(record, rerun, f"examples/{ex.rel}")
            if ex.rel in failed and load_failure(ex.rel, "cpu", examples_dir) is not None:
                problems.append(f"examples/{ex.rel}: a cpu.failed.json is committed, but the example runs")
    return problems


def main(argv: list[str] | None = None, examples_dir: Path = EXAMPLES_DIR) -> int:
    """``scripts/verify_records.py --base REF [...]``; returns the exit status (module docstring)."""
    ap = argparse.ArgumentParser(prog="make verify-records", description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", required=True, help="the git ref the change is against (main, origin/main)")
    ap.add_argument("--jobs", "-j", type=int, default=1, help="examples to run at once in the sandbox (default 1)")
    ap.add_argument("--isolation", choices=("auto", "bwrap", "supervised"), default="auto",
                    help="as make capture's (bwrap: fail when bubblewrap cannot start)")
    ap.add_argument("--kind", choices=("all", "cpu", "cuda"), default="all", help="which records to verify")
    ap.add_argument("--cuda-proof", choices=("none", "attestation"), default="none",
                    help="none: any changed CUDA record fails; attestation: it needs the capture workflow's")
    ap.add_argument("--repo", default=os.environ.get("GITHUB_REPOSITORY", ""), help="OWNER/NAME (attestations)")
    ap.add_argument("--keep", type=Path, help="keep the re-run records in this folder (its _outputs)")
    ap.add_argument("--examples-dir", type=Path, default=None, help="examples folder (default: examples/; tests)")
    args = ap.parse_args(argv)
    examples_dir = (args.examples_dir or examples_dir).resolve()
    try:
        merge_base, paths = changed_files(args.base, examples_dir)
    except (VerifyError, OSError, subprocess.SubprocessError) as exc:
        print(f"verify-records: {exc}", file=sys.stderr)
        return 2
    chosen = select(paths, examples_dir)
    print(f"verify-records: {len(paths)} changed file(s) under examples/ since {args.base} (merge base "
          f"{merge_base[:12]}): {len(chosen.examples)} example(s) to re-run, {len(chosen.cuda)} CUDA record(s)"
          f"{f', {len(chosen.removed)} record(s) removed' if chosen.removed else ''}")
    problems = list(chosen.problems)
    if args.kind != "cpu":
        problems += cuda_problems(chosen.cuda, args.cuda_proof, args.repo, examples_dir)
    if args.kind != "cuda" and chosen.examples:
        examples, torch_here = [], (host_device() or {}).get("torch")
        for rel in chosen.examples:
            try:
                ex = parse_example(examples_dir / rel, examples_dir)
            except ExampleError as exc:
                problems.append(str(exc))
                continue
            if ex.needs_cuda and layout.record_path(rel, "cpu", examples_dir).exists():
                problems.append(f"examples/{rel}: requires CUDA, yet a cpu.json is committed")
            elif not ex.runs_with_torch(torch_here):
                problems.append(f"examples/{rel}: needs torch >= {ex.min_torch}, this machine has {torch_here}")
            elif not ex.needs_cuda:
                examples.append(ex)
        try:
            runs = Supervisor(examples_dir.parent, mode=args.isolation)
        except SandboxError as exc:
            print(f"verify-records: --isolation bwrap: {exc}", file=sys.stderr)
            return 2
        if runs.kind != "cpu":
            print("verify-records: torch sees a GPU here, and CPU records are re-run on a CPU: hide it "
                  "(CUDA_VISIBLE_DEVICES= make verify-records ...)", file=sys.stderr)
            return 2
        print(f"verify-records: {runs.sandbox.describe()}")
        problems += verify_cpu(examples, runs, args.jobs, examples_dir, chosen.failed_cpu, args.keep)
    for line in problems:
        print(log_text(line), file=sys.stderr)  # quotes what examples printed: inert in a CI log
    print(f"verify-records: {len(problems)} problem(s)")
    return 1 if problems else 0
