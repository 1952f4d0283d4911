"""The GPU capture as one prepared command, for a machine lent for a few minutes with no package registry.

Three commands (CONTRIBUTING: "Capturing on a lent GPU"):

* ``make gpu-bundle`` (``bundle``), here: gathers into ``.gpu-bundle/`` (git-ignored) the wheels of the
  distributions the examples import that the GPU image lacks (``GPU_IMAGE``), and this machine's
  ``bwrap`` for the sandbox; checks that the folder plus the working tree fit the copy the device
  tool makes (``TREE_LIMIT``); writes ``manifest.json``.
* ``bash scripts/gpu_capture.sh``, there (``$OUT`` set, ``.gpu-bundle`` carried): installs the wheels
  without a registry (``install_wheels``), runs ``capture.py --force`` on every example with a change
  report, validates, and packs the new records and a log into ``$OUT``; the CPU records are untouched.
* ``make gpu-unpack ARCHIVE=...`` (``unpack``), here: checks the archive's members and records in a
  temporary folder (an archive is untrusted: bounded, no link, no other path, each record as
  ``validate_outputs`` checks it), only then brings them into ``examples/_outputs/``, and runs
  ``validate_outputs`` on the whole store.

The image's facts come from ``../shared/STACK.md`` ("The NVIDIA GPU machine"). Standard library only
(``pip download`` is run as a command).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

from pytorch_notes.execute.limits import RECORD_FILE_BYTES
from pytorch_notes.execute.provenance import imported_modules
from pytorch_notes.parse import EXAMPLE_ID_PATTERN, ExampleError, discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, REPO_ROOT, display_path
from pytorch_notes.store import layout
from pytorch_notes.store.layout import STORE_DIRNAME
from pytorch_notes.store.model import DEVICE_KINDS
from pytorch_notes.store.records import StoreError, load_failure, load_record, store_write_text
from pytorch_notes.store.untrusted import log_text
from pytorch_notes.store.validate import main as validate_main
from pytorch_notes.store.validate import record_problems

BUNDLE = ".gpu-bundle"
TREE_LIMIT = 64 << 20  # bytes of the working tree plus carried folders the device tool copies
# What the lent GPU machine's image has (STACK.md, 2026-11): the distributions an example may import there.
GPU_IMAGE = frozenset({"torch", "torchvision", "numpy", "matplotlib", "scikit-learn", "scipy", "pandas", "pillow",
                       "rich", "tqdm", "triton", "onnx", "onnxruntime", "onnxscript", "tensorboard", "psutil",
                       "pytest"})
GPU_PYTHON = "3.12"  # the image's Python, for the wheels
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux2014_x86_64", "manylinux_2_17_x86_64", "any")
_STEM = EXAMPLE_ID_PATTERN.removesuffix(r"\.py")  # <chapter>/<name>
_MEMBER = re.compile(rf"^examples/{STORE_DIRNAME}/(?P<rel>{_STEM})/(?P<kind>cpu|cuda)(?P<failed>\.failed)?\.json$")


def needed_distributions(examples_dir: Path = EXAMPLES_DIR) -> dict[str, str]:
    """``{distribution: version}`` the examples import (statically, ``provenance.imported_modules``) that the
    GPU image lacks, at this machine's installed version (``constraints.txt`` pins it)."""
    providers = metadata.packages_distributions()
    found: dict[str, str] = {}
    for path in discover_examples(examples_dir):
        example = parse_example(path, examples_dir)
        for module in imported_modules([c.source for c in example.cells]):
            for dist in providers.get(module, []):
                if dist.lower() not in GPU_IMAGE:
                    found[dist] = metadata.version(dist)
    return dict(sorted(found.items()))


def _pip_python() -> str:
    """An interpreter with pip: this one, or the system's ``python3`` (the project's virtualenv has no pip:
    the Makefile creates it without and installs with uv, which has no ``download``)."""
    has_pip = subprocess.run([sys.executable, "-c", "import pip"], capture_output=True).returncode == 0
    return sys.executable if has_pip else (shutil.which("python3") or sys.executable)


def tree_bytes(root: Path = REPO_ROOT) -> int:
    """Bytes of what the device tool copies of ``root``: tracked files and untracked ones git does not ignore."""
    listed = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=root, check=True,
                            capture_output=True).stdout.decode().split("\0")
    return sum((root / p).stat().st_size for p in listed if p and (root / p).is_file())


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def bundle(root: Path = REPO_ROOT, download: bool = True) -> dict:
    """Fill ``root/.gpu-bundle`` (wheels, ``bin/bwrap``, ``manifest.json``) and return the manifest.

    Raises:
        RuntimeError: ``pip download`` failed, or the tree plus the bundle pass ``TREE_LIMIT``.
    """
    out = root / BUNDLE
    wheels = out / "wheels"
    shutil.rmtree(out, ignore_errors=True)
    wheels.mkdir(parents=True)
    needed = needed_distributions(root / "examples")
    if download and needed:
        cmd = [_pip_python(), "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
               "--python-version", GPU_PYTHON, "--implementation", "cp", "-d", str(wheels),
               *[x for p in PLATFORMS for x in ("--platform", p)], *[f"{d}=={v}" for d, v in needed.items()]]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"pip download failed:\n{done.stderr[-2000:]}")
    bwrap = shutil.which("bwrap")
    if bwrap:  # the image has no bubblewrap; Debian's binary needs only libc, libcap and libselinux
        (out / "bin").mkdir()
        shutil.copy2(bwrap, out / "bin" / "bwrap")
    manifest = {"distributions": needed, "wheels": sorted(p.name for p in wheels.glob("*.whl")),
                "bwrap": bool(bwrap), "bundle_bytes": folder_bytes(out), "tree_bytes": tree_bytes(root)}
    manifest["total_bytes"] = manifest["bundle_bytes"] + manifest["tree_bytes"]
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    if manifest["total_bytes"] > TREE_LIMIT:
        raise RuntimeError(f"the tree ({manifest['tree_bytes']:,} bytes) and {BUNDLE} ({manifest['bundle_bytes']:,}) "
                           f"pass the {TREE_LIMIT:,} bytes the device tool copies")
    return manifest


def install_wheels(wheels: Path, target: Path) -> list[str]:
    """Install every wheel of ``wheels`` into ``target`` without pip or a registry: a wheel is a zip whose
    ``*.data/purelib`` and ``platlib`` go beside its packages. Returns the wheels installed."""
    target.mkdir(parents=True, exist_ok=True)
    done = []
    for wheel in sorted(wheels.glob("*.whl")):
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                parts = info.filename.split("/")
                if ".." in parts or info.filename.startswith("/"):
                    continue
                if len(parts) > 2 and parts[0].endswith(".data") and parts[1] in ("purelib", "platlib"):
                    parts = parts[2:]
                elif parts[0].endswith(".data"):
                    continue  # scripts, headers, data: not needed to import
                dest = target.joinpath(*parts)
                if info.is_dir():
                    dest.mkdir(parents=True, exist_ok=True)
                    continue
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(z.read(info))
        done.append(wheel.name)
    return done


UNPACK_BYTES = 256 << 20  # bytes of all of an archive's records together (the whole store was ~10 MB, 2026-11)


def unpack(archive: Path, examples_dir: Path = EXAMPLES_DIR, kind: str = "cuda") -> list[Path]:
    """Bring the ``kind`` records and failure markers of ``archive`` (``gpu_capture.sh``'s ``records.tgz``)
    into the store of ``examples_dir``; never another kind's, never another path. Returns the files written
    (a member equal to the committed file is not written again).

    An archive is untrusted, and nothing of the store is replaced until all of it passed: its members are
    read one header at a time, at most ``4 * examples + 8`` of them (a record, a failure marker and a
    folder entry per example, and the chapters'), at most ``RECORD_FILE_BYTES`` each and ``UNPACK_BYTES``
    together, each written into a temporary folder; then every record that would change a committed one
    is checked as ``validate_outputs.py`` checks it (``validate.record_problems``: its example's, fresh,
    honest about its device, only what a capture stores) and every failure marker is read.

    Raises:
        StoreError: a member is not ``examples/_outputs/<chapter>/<name>/<kind>[.failed].json`` (an
            absolute path, ``..``, a link, a device file, another kind), is in the archive twice, is larger
            than ``RECORD_FILE_BYTES``, names an example that does not exist, or would pass a bound above;
            or a record is refused (every problem named). Every committed file is then as it was.
        tarfile.TarError, OSError: the archive cannot be read; nothing is written then either.
    """
    root = Path(_real_dir(examples_dir))
    examples = {p.relative_to(root).as_posix() for p in discover_examples(root)}
    with tempfile.TemporaryDirectory(prefix="gpu-unpack-") as tmp:
        staged = _stage(archive, Path(tmp), examples, kind)
        changed, problems = [], []
        for rel, failed in staged:
            name = f"{kind}.failed.json" if failed else f"{kind}.json"
            new = Path(tmp) / STORE_DIRNAME / rel.removesuffix(".py") / name
            where, there = layout.checked(root / STORE_DIRNAME / rel.removesuffix(".py") / name)
            data = new.read_bytes()
            if there and Path(where).read_bytes() == data:
                continue  # the committed file as it is
            changed.append((Path(where), data))
            shown = f"{display_path(archive)}:examples/{STORE_DIRNAME}/{rel.removesuffix('.py')}/{name}"
            try:
                if failed:
                    load_failure(rel, kind, Path(tmp))
                    continue
                record = load_record(rel, kind, Path(tmp))
                problems += record_problems(Path(shown), rel, record, parse_example(root / rel, root))
            except (StoreError, ExampleError) as exc:
                problems.append(str(exc).replace(str(Path(tmp) / STORE_DIRNAME), f"{display_path(archive)}:examples/"
                                                 f"{STORE_DIRNAME}"))
        if problems:
            raise StoreError(f"{display_path(archive)}: refused, no record replaced:\n" + "\n".join(problems))
        for path, data in changed:
            store_write_text(path, data.decode("utf-8"))
    return [path for path, _ in changed]


def _real_dir(folder: Path) -> str:
    return os.path.realpath(os.path.abspath(folder))


def _stage(archive: Path, tmp: Path, examples: set[str], kind: str) -> list[tuple[str, bool]]:
    """Check each member of ``archive`` and write it under ``tmp/_outputs/`` (see ``unpack``); returns the
    (example id, failure marker?) of each. Raises StoreError at the first member refused."""
    name = display_path(archive)
    limit = 4 * len(examples) + 8
    seen: set[str] = set()
    staged: list[tuple[str, bool]] = []
    total = 0
    with tarfile.open(archive, "r:gz") as tar:
        for count, info in enumerate(tar, start=1):  # one header at a time; getmembers() would read them all
            if count > limit:
                raise StoreError(f"{name}: more than {limit} members, more than a capture of {len(examples)} "
                                 "examples packs")
            if info.name in seen:
                raise StoreError(f"{name}: {info.name!r} is in the archive twice")
            seen.add(info.name)
            if info.issym() or info.islnk():
                raise StoreError(f"{name}: {info.name!r} is a link (-> {info.linkname!r}), not a record")
            if info.name.startswith("/") or ".." in info.name.split("/"):
                raise StoreError(f"{name}: {info.name!r}: an absolute path or '..', not a record of the store")
            if info.isdir():
                continue
            m = _MEMBER.match(info.name)
            if not m or m["kind"] != kind or not info.isfile() or info.size > RECORD_FILE_BYTES:
                raise StoreError(f"{name}: {info.name!r}: not a {kind} record of the store")
            if f"{m['rel']}.py" not in examples:
                raise StoreError(f"{name}: {info.name!r}: no example examples/{m['rel']}.py")
            total += info.size
            if total > UNPACK_BYTES:
                raise StoreError(f"{name}: its records pass {UNPACK_BYTES:,} bytes together, more than a capture "
                                 "writes")
            dest = tmp / STORE_DIRNAME / m["rel"] / (f"{kind}.failed.json" if m["failed"] else f"{kind}.json")
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(tar.extractfile(info).read(RECORD_FILE_BYTES + 1))
            staged.append((f"{m['rel']}.py", bool(m["failed"])))
    return staged


def main_bundle(argv: list[str] | None = None) -> int:
    """``make gpu-bundle [ARGS=--no-download]``."""
    ap = argparse.ArgumentParser(prog="make gpu-bundle", description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-download", action="store_true", help="list what would be bundled, download nothing")
    args = ap.parse_args(argv)
    try:
        m = bundle(download=not args.no_download)
    except RuntimeError as exc:
        print(f"gpu-bundle: {exc}", file=sys.stderr)
        return 1
    print(f"gpu-bundle: {', '.join(f'{d} {v}' for d, v in m['distributions'].items()) or 'nothing'} to bring; "
          f"{len(m['wheels'])} wheel(s){', bwrap' if m['bwrap'] else ''}; {BUNDLE} {m['bundle_bytes']:,} bytes + tree "
          f"{m['tree_bytes']:,} = {m['total_bytes'] / 2**20:.1f} MiB of {TREE_LIMIT / 2**20:.0f} MiB")
    print('gpu-bundle: on the GPU machine run `bash scripts/gpu_capture.sh` with carry [".gpu-bundle"]; then '
          "`make gpu-unpack ARCHIVE=<files_at>/records.tgz` here")
    return 0


def main_unpack(argv: list[str] | None = None) -> int:
    """``make gpu-unpack ARCHIVE=path [KIND=cuda]``: unpack, then validate the store."""
    ap = argparse.ArgumentParser(prog="make gpu-unpack")
    ap.add_argument("archive", type=Path)
    ap.add_argument("--kind", default="cuda", choices=DEVICE_KINDS)
    ap.add_argument("--examples-dir", type=Path, default=EXAMPLES_DIR)
    args = ap.parse_args(argv)
    try:
        written = unpack(args.archive, args.examples_dir, args.kind)
    except (StoreError, tarfile.TarError, OSError, UnicodeDecodeError, EOFError) as exc:
        print(log_text(f"gpu-unpack: {exc}"), file=sys.stderr)  # quotes the archive's records
        return 1
    store = display_path(Path(args.examples_dir) / STORE_DIRNAME)
    print(f"gpu-unpack: {len(written)} {args.kind} file(s) written into {store} (the others as committed)")
    return validate_main(["--examples", str(args.examples_dir), "--device", args.kind])


def main_install(argv: list[str] | None = None) -> int:
    """``python3 -m pytorch_notes.capture.gpu WHEELS TARGET``: what ``gpu_capture.sh`` runs there."""
    wheels, target = (Path(a) for a in (argv or sys.argv[1:])[:2])
    names = install_wheels(wheels, target)
    print(f"gpu_capture: installed {', '.join(names) or 'no wheel'} into {target}", file=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main_install(sys.argv[1:]))
