"""The GPU run as one prepared command (issue 30, item 4), tested here end to end on the CPU: the dry run
packs CPU records through the same script a lent GPU machine runs, and ``make gpu-unpack`` brings them back."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
from pytorch_notes.capture.gpu import GPU_IMAGE, TREE_LIMIT, main_unpack, needed_distributions, tree_bytes, unpack
from pytorch_notes.store.layout import record_path
from pytorch_notes.store.records import StoreError, load_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {"ch/a.py": "# %%\nimport pn_dry_run_pkg\nprint('from the bundle:', pn_dry_run_pkg.VALUE)\n",
            "ch/b.py": "# %%\nprint(6 * 7)\n"}


def fake_wheel(folder: Path) -> Path:
    """A pure-Python wheel, as ``pip download`` would bring one: the package and its dist-info."""
    folder.mkdir(parents=True)
    wheel = folder / "pn_dry_run_pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("pn_dry_run_pkg/__init__.py", "VALUE = 'installed offline'\n")
        z.writestr("pn_dry_run_pkg-1.0.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: pn-dry-run-pkg\nVersion: 1.0\n")
    return wheel


def write_examples(examples_dir: Path) -> None:
    for rel, source in EXAMPLES.items():
        (examples_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (examples_dir / rel).write_text(source, encoding="utf-8")


def test_the_dry_run_packs_records_and_gpu_unpack_brings_them_back(tmp_path):
    src, out, bundle = tmp_path / "src" / "examples", tmp_path / "out", tmp_path / "bundle"
    write_examples(src)
    fake_wheel(bundle / "wheels")
    env = {**os.environ, "OUT": str(out), "PN_GPU_KIND": "cpu", "PN_EXAMPLES": str(src), "PN_BUNDLE": str(bundle),
           "PN_JOBS": "2"}
    done = subprocess.run(["bash", "scripts/gpu_capture.sh"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    log = (out / "capture.log").read_text(encoding="utf-8")
    assert done.returncode == 0, done.stdout + done.stderr + log
    assert sorted(p.name for p in out.iterdir()) == ["capture.log", "changes.md", "records.tgz", "status.txt",
                                                      "summary.md"]
    assert "installed pn_dry_run_pkg-1.0-py3-none-any.whl" in log and "validate_outputs: 2 cpu records OK" in log
    assert (out / "status.txt").read_text() == "setup 0\ncapture 0\nvalidate 0\n"
    with tarfile.open(out / "records.tgz") as tar:
        assert sorted(tar.getnames()) == ["examples/_outputs/ch/a/cpu.json", "examples/_outputs/ch/b/cpu.json"]
    assert "2 example(s) re-captured" in (out / "changes.md").read_text(encoding="utf-8")

    dst = tmp_path / "dst" / "examples"
    write_examples(dst)
    assert main_unpack([str(out / "records.tgz"), "--kind", "cpu", "--examples-dir", str(dst)]) == 0
    stream = load_record("ch/a.py", "cpu", dst).cells[0].outputs[0]
    assert stream.text == "from the bundle: installed offline\n"
    assert record_path("ch/b.py", "cpu", dst).read_bytes() == record_path("ch/b.py", "cpu", src).read_bytes()


def _archive(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("name", ["examples/_outputs/ch/a/cpu.json", "examples/_outputs/../../evil.json",
                                  "examples/_outputs/ch/zz/cuda.json", "examples/ch/a.py", "/etc/cuda.json"])
def test_gpu_unpack_takes_only_records_of_the_kind_for_examples_that_exist(tmp_path, name):
    examples_dir = tmp_path / "examples"
    write_examples(examples_dir)
    archive = _archive(tmp_path / "records.tgz", {name: b"{}"})
    with pytest.raises(StoreError, match="not a cuda record of the store|no example"):
        unpack(archive, examples_dir, "cuda")
    assert not (examples_dir / "_outputs").exists() and not (tmp_path / "evil.json").exists()


def test_the_bundle_brings_what_the_gpu_image_lacks_and_fits_the_copy():
    needed = needed_distributions()
    assert "torchinfo" in needed and not {d.lower() for d in needed} & GPU_IMAGE
    assert tree_bytes() < TREE_LIMIT // 4, "the tree alone should leave most of the 64 MiB to the bundle"
    assert shutil.which("bash")
