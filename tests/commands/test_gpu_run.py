"""The GPU run as one prepared command (issue 30, item 4), tested here end to end on the CPU: the dry run
packs CPU records through the same script a lent GPU machine runs, and ``make gpu-unpack`` brings them back."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
from pytorch_notes.capture import gpu
from pytorch_notes.capture.gpu import GPU_IMAGE, TREE_LIMIT, main_unpack, needed_distributions, tree_bytes, unpack
from pytorch_notes.parse import parse_example
from pytorch_notes.store.layout import record_path
from pytorch_notes.store.records import StoreError, load_record

ROOT = Path(__file__).resolve().parents[2]
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
    with pytest.raises(StoreError, match="not a cuda record of the store|no example|an absolute path or '..'"):
        unpack(archive, examples_dir, "cuda")
    assert not (examples_dir / "_outputs").exists() and not (tmp_path / "evil.json").exists()


# --- make gpu-unpack checks the whole archive before it replaces any committed record (issue 42, item 8) -----

def _records(examples_dir: Path, texts: dict[str, str]) -> dict[str, bytes]:
    """Good CUDA records (as ``validate_outputs`` wants them) of the examples ``texts`` names, printing their
    text: ``{archive member: JSON bytes}``."""
    from test_store import fake_record

    found = {}
    for rel, text in texts.items():
        data = fake_record(parse_example(examples_dir / rel, examples_dir), "cuda", text)
        data["provenance"]["isolation"] = "bwrap 0.8.0"
        found[f"examples/_outputs/{rel[:-3]}/cuda.json"] = json.dumps(data).encode()
    return found


def _committed(examples_dir: Path) -> dict[Path, bytes]:
    write_examples(examples_dir)
    for member, data in _records(examples_dir, {"ch/a.py": "old a\n", "ch/b.py": "old b\n"}).items():
        path = examples_dir.parent / member
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return {p: p.read_bytes() for p in sorted((examples_dir / "_outputs").rglob("*")) if p.is_file()}


def _forge(data: bytes, how: str) -> bytes:
    record = json.loads(data)
    if how == "stale":
        record["key"] = "0" * 16
    elif how == "control characters":
        record["cells"][0]["outputs"][0]["text"] = "\x1b[2Jcleared\n"
    elif how == "a CPU in a CUDA record":
        record["provenance"]["device"] = "CPU"
    elif how == "another example":
        record["example"] = "ch/a.py"
    else:
        return b"{not json"
    return json.dumps(record).encode()


@pytest.mark.parametrize("how, words", [("stale", "stale"), ("control characters", "control characters"),
                                        ("a CPU in a CUDA record", "not a GPU name"), ("another example", "ch/a.py"),
                                        ("not JSON", "not valid JSON")])
def test_one_refused_record_leaves_every_committed_record_as_it_was(tmp_path, capsys, how, words):
    examples_dir = tmp_path / "examples"
    before = _committed(examples_dir)
    members = _records(examples_dir, {"ch/a.py": "new a\n", "ch/b.py": "new b\n"})
    members["examples/_outputs/ch/b/cuda.json"] = _forge(members["examples/_outputs/ch/b/cuda.json"], how)
    archive = _archive(tmp_path / "records.tgz", members)
    with pytest.raises(StoreError, match="refused, no record replaced") as err:
        unpack(archive, examples_dir, "cuda")
    assert words in str(err.value) and "ch/b/cuda.json" in str(err.value), str(err.value)
    assert main_unpack([str(archive), "--examples-dir", str(examples_dir)]) == 1
    assert "no record replaced" in capsys.readouterr().err
    after = {p: p.read_bytes() for p in sorted((examples_dir / "_outputs").rglob("*")) if p.is_file()}
    assert after == before, "the good record of ch/a.py was not written either"


def test_a_good_archive_replaces_only_what_changed(tmp_path):
    examples_dir = tmp_path / "examples"
    before = _committed(examples_dir)
    members = _records(examples_dir, {"ch/a.py": "new a\n"})
    members["examples/_outputs/ch/b/cuda.json"] = before[examples_dir / "_outputs" / "ch" / "b" / "cuda.json"]
    written = unpack(_archive(tmp_path / "records.tgz", members), examples_dir, "cuda")
    assert [p.relative_to(examples_dir.resolve()).as_posix() for p in written] == ["_outputs/ch/a/cuda.json"]
    assert load_record("ch/a.py", "cuda", examples_dir).cells[0].outputs[0].text == "new a\n"


def _tar(path: Path, add) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        add(tar)
    return path


def _member(tar, name: str, data: bytes = b"{}", **attrs) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data) if not attrs else 0
    for key, value in attrs.items():
        setattr(info, key, value)
    tar.addfile(info, io.BytesIO(data) if not attrs else None)


@pytest.mark.parametrize("case, words", [
    ("twice", "is in the archive twice"),
    ("symbolic link", "is a link"),
    ("hard link", "is a link"),
    ("too many members", "more than 16 members"),
    ("too many bytes", "pass 100 bytes together"),
])
def test_gpu_unpack_bounds_the_archive_and_refuses_duplicates_and_links(tmp_path, monkeypatch, case, words):
    examples_dir = tmp_path / "examples"
    before = _committed(examples_dir)
    good = _records(examples_dir, {"ch/a.py": "new a\n"})
    name, data = next(iter(good.items()))

    def add(tar) -> None:
        if case == "twice":
            _member(tar, name, data)
            _member(tar, name, data)
        elif case == "symbolic link":
            _member(tar, name, type=tarfile.SYMTYPE, linkname="/etc/passwd")
        elif case == "hard link":
            _member(tar, name, type=tarfile.LNKTYPE, linkname="examples/ch/a.py")
        elif case == "too many members":  # 2 examples: 4 * 2 + 8 = 16 members at most
            for i in range(17):
                _member(tar, f"examples/_outputs/d{i}", type=tarfile.DIRTYPE)
        else:
            monkeypatch.setattr(gpu, "UNPACK_BYTES", 100)
            _member(tar, name, data)

    with pytest.raises(StoreError, match=words):
        unpack(_tar(tmp_path / "records.tgz", add), examples_dir, "cuda")
    assert {p: p.read_bytes() for p in sorted((examples_dir / "_outputs").rglob("*")) if p.is_file()} == before


def test_the_bundle_brings_what_the_gpu_image_lacks_and_fits_the_copy():
    needed = needed_distributions()
    assert "torchinfo" in needed and not {d.lower() for d in needed} & GPU_IMAGE
    assert tree_bytes() < TREE_LIMIT // 4, "the tree alone should leave most of the 64 MiB to the bundle"
    assert shutil.which("bash")
