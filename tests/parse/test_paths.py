"""Where files are (issue 26, items 4 and 6): nothing outside ``examples/`` is run or published, and the
store never reads or writes outside ``examples/_outputs/``. And (issue 28, item 1) a build takes its folders
from the MkDocs configuration: a copy of a checkout built with this checkout's package reads and writes its own.

A hostile contributor can commit a symbolic link (an example pointing at ``/etc/passwd``, a store folder
pointing anywhere), a folder named ``x.py``, a file that is not UTF-8, or a record that claims to be
another example's or another device's. Each case is set up in a throw-away tree: unit checks of
``parse_example`` and the store, the real ``scripts/capture.py --examples-dir``, and strict builds of a
tiny copy of the site (the real plugin, one page per language).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import bytecode_env
from pytorch_notes.capture.report import prune
from pytorch_notes.execute.limits import RECORD_FILE_BYTES
from pytorch_notes.parse import ExampleError, discover_examples, parse_example
from pytorch_notes.store import layout
from pytorch_notes.store.model import Record, load
from pytorch_notes.store.records import (
    StoreError,
    capture_lock,
    load_failure,
    load_record,
    remove_leftover_temp_files,
    save_record,
    store_write_text,
)
from test_store import fake_record

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")
OK = '# %%\nprint("hello")\n'
SECRET = "SECRET-1b7e3c"  # in the file outside examples/: it must appear in no output


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside examples/, with a file that is a valid example and would leave a trace if run."""
    d = tmp_path / "outside"
    d.mkdir()
    trace = d / "ran.txt"
    (d / "secret.py").write_text(f'# %%\nprint("{SECRET}")\nopen({str(trace)!r}, "w").write("ran")\n',
                                 encoding="utf-8")
    return d


def capture(examples_dir: Path, *args: str) -> subprocess.CompletedProcess:
    """The real ``make capture`` command, on ``examples_dir`` (a new process: it imports torch, ~2 s)."""
    return subprocess.run([sys.executable, "scripts/capture.py", "--examples-dir", str(examples_dir), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")})


def capture_here(examples_dir: Path, capsys, *args: str) -> subprocess.CompletedProcess:
    """``make capture``'s ``main`` in this process (the device probe is done once per worker): the same
    exit status and output as the command, and an exception would fail the test as a traceback would."""
    from pytorch_notes import capture as command

    capsys.readouterr()
    status = command.main(list(args), examples_dir)
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(args, status, out, err)


# --- examples: discovery and parsing -------------------------------------------------------------

def test_a_link_to_a_file_outside_is_refused_naming_the_link_and_its_target(examples_dir, outside):
    link = examples_dir / "ch" / "leak.py"
    link.parent.mkdir()
    link.symlink_to(outside / "secret.py")
    assert discover_examples(examples_dir) == [link], "listed, so that every consumer reports it"
    with pytest.raises(ExampleError) as err:
        parse_example(link, examples_dir)
    assert str(err.value).startswith(f"{link}:1: resolves outside examples/ (-> {outside / 'secret.py'})")


def test_a_linked_chapter_folder_is_refused(examples_dir, outside):
    (examples_dir / "ch").symlink_to(outside, target_is_directory=True)
    (path,) = discover_examples(examples_dir)
    with pytest.raises(ExampleError, match=r"ch:1: resolves outside examples/ \(-> .*outside\)"):
        parse_example(path, examples_dir)


def test_a_link_inside_examples_is_refused_too(write_example, examples_dir):
    write_example("ch/real.py", OK)
    (examples_dir / "ch" / "alias.py").symlink_to("real.py")
    problems = []
    for path in discover_examples(examples_dir):
        try:
            parse_example(path, examples_dir)
        except ExampleError as exc:
            problems.append(str(exc))
    assert len(problems) == 1 and "alias.py:1: is a symbolic link (-> " in problems[0], problems


def test_a_folder_named_like_an_example_is_refused(examples_dir):
    (examples_dir / "ch" / "x.py").mkdir(parents=True)
    (path,) = discover_examples(examples_dir)
    with pytest.raises(ExampleError, match=r"ch/x\.py:1: is a directory, not an example file"):
        parse_example(path, examples_dir)


def test_a_file_that_is_not_utf8_is_refused_naming_file_and_line(examples_dir):
    path = examples_dir / "ch" / "latin.py"
    path.parent.mkdir()
    path.write_bytes(b'# %%\nx = 1\nprint("caf\xe9")\n')
    with pytest.raises(ExampleError) as err:
        parse_example(path, examples_dir)
    assert str(err.value).startswith(f"{path}:3: not UTF-8: byte 0xe9"), str(err.value)


def test_a_file_outside_the_examples_folder_is_refused(examples_dir, outside):
    with pytest.raises(ExampleError, match="not inside"):
        parse_example(outside / "secret.py", examples_dir)


# --- examples: the capture command -------------------------------------------------------------

@pytest.mark.parametrize("how", ["all", "named", "list"])
def test_capture_refuses_a_linked_example_and_never_runs_it(examples_dir, outside, how, capsys):
    link = examples_dir / "ch" / "leak.py"
    link.parent.mkdir()
    link.symlink_to(outside / "secret.py")
    args = {"all": [], "named": [str(link)], "list": ["--list"]}[how]
    proc = capture(examples_dir, *args) if how == "all" else capture_here(examples_dir, capsys, *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert f"{link}:1: resolves outside examples/ (-> {outside / 'secret.py'})" in out
    assert "Traceback" not in out and SECRET not in out
    if how == "list":
        assert "malformed" in proc.stdout and str(link) in proc.stdout
    assert not (outside / "ran.txt").exists(), "the file outside examples/ was run"
    assert not layout.example_dir("ch/leak.py", examples_dir).exists()


@pytest.mark.parametrize("args", [[], ["--list"]])
def test_capture_names_a_folder_called_x_py_without_a_traceback(examples_dir, args, capsys):
    (examples_dir / "ch" / "x.py").mkdir(parents=True)
    proc = capture_here(examples_dir, capsys, *args)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1 and "Traceback" not in out, out
    assert f"{examples_dir}/ch/x.py:1: is a directory, not an example file" in out


# --- the store -----------------------------------------------------------------------------------

def test_capture_refuses_a_linked_store_folder_and_writes_nothing_outside(write_example, examples_dir, outside,
                                                                         capsys):
    write_example("ch/a.py", OK)
    store = layout.store_dir(examples_dir)
    store.mkdir()
    (store / "ch").symlink_to(outside, target_is_directory=True)
    before = sorted(outside.iterdir())
    proc = capture_here(examples_dir, capsys)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "_outputs/ch/a/cpu.json: refused: " in out and "_outputs/ch is a symbolic link (-> " in out, out
    assert sorted(outside.iterdir()) == before, "capture wrote outside the store"
    shutil.rmtree(store)  # now the store folder itself
    store.symlink_to(outside, target_is_directory=True)
    for args in ([], ["--force"], ["--prune"], ["--migrate"]):
        proc = capture_here(examples_dir, capsys, *args)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 1 and "_outputs: refused: it is a symbolic link (-> " in out, out
        assert sorted(outside.iterdir()) == before, f"capture {args} wrote outside the store"


def test_no_store_writer_goes_through_a_link(write_example, examples_dir, outside, tmp_path):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    record = load(Record, fake_record(ex))
    store = layout.store_dir(examples_dir)
    store.mkdir()
    (store / "ch").symlink_to(outside, target_is_directory=True)
    (outside / "a").mkdir()
    (outside / "a" / ".cpu.json.x.tmp").write_text("not a leftover of this store")
    with pytest.raises(StoreError, match=r"_outputs/ch/a/cpu\.json: refused: .*_outputs/ch is a symbolic link"):
        save_record(record, examples_dir)
    with pytest.raises(StoreError, match="symbolic link"):
        store_write_text(layout.record_path("ch/a.py", "cpu", examples_dir), "{}")
    (outside / "gone").mkdir()
    (store / "gone").symlink_to(outside / "gone", target_is_directory=True)
    (outside / "gone" / "x").mkdir()
    (outside / "gone" / "x" / "cpu.json").write_text("{}")  # an orphan, if the link were followed
    remove_leftover_temp_files(examples_dir)
    prune(examples_dir)
    assert sorted(p.relative_to(outside).as_posix() for p in outside.rglob("*")) == [
        "a", "a/.cpu.json.x.tmp", "gone", "gone/x", "gone/x/cpu.json", "secret.py"]

    shutil.rmtree(store)  # now the store folder itself is a link
    store.symlink_to(outside, target_is_directory=True)
    for write in (lambda: capture_lock(examples_dir).__enter__(), lambda: remove_leftover_temp_files(examples_dir),
                  lambda: save_record(record, examples_dir), lambda: prune(examples_dir)):
        with pytest.raises(StoreError, match=r"_outputs(: refused: it)? is a symbolic link \(-> .*outside\)"):
            write()
    assert not (outside / ".lock").exists() and not (outside / "ch").exists()
    assert (outside / "a" / ".cpu.json.x.tmp").exists()


def test_a_linked_record_file_is_not_read(write_example, examples_dir, outside):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    (outside / "cpu.json").write_text(json.dumps(fake_record(ex, text=SECRET)), encoding="utf-8")
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.symlink_to(outside / "cpu.json")
    with pytest.raises(StoreError, match=r"ch/a/cpu\.json: refused: it is a symbolic link \(-> .*outside"):
        load_record("ch/a.py", "cpu", examples_dir)


@pytest.mark.parametrize("forged, field", [
    ({"example": "ch/other.py"}, "field example: 'ch/other.py', but the file is in the place of examples/ch/a.py"),
    ({"device_kind": "cuda"}, "field device_kind: 'cuda', but the file name says 'cpu'"),
    ({"provenance_kind": "cuda"}, "field provenance.device_kind: 'cuda', but the file name says 'cpu'"),
])
def test_a_record_that_claims_another_place_is_refused(write_example, examples_dir, forged, field):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    data = fake_record(ex)
    if "provenance_kind" in forged:
        data["provenance"]["device_kind"] = forged["provenance_kind"]
    else:
        data.update(forged)
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(StoreError) as err:
        load_record("ch/a.py", "cpu", examples_dir)
    assert str(err.value).startswith(f"{path}: {field}"), str(err.value)
    assert "Recover by re-capturing the example" in str(err.value)


def test_a_failure_marker_of_another_device_is_refused(write_example, examples_dir):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    marker = {"format": fake_record(ex)["format"], "example": "ch/a.py", "device_kind": "cuda", "key": ex.key,
              "source_sha256": ex.sha256, "status": "failed", "location": "examples/ch/a.py:2", "message": "x",
              "captured_at": "2026-11-23T00:00:00Z", "provenance": None}
    path = layout.failure_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(marker), encoding="utf-8")
    with pytest.raises(StoreError, match=r"cpu\.failed\.json: field device_kind: 'cuda'"):
        load_failure("ch/a.py", "cpu", examples_dir)


def test_an_oversize_record_file_is_refused_before_it_is_parsed(write_example, examples_dir):
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    text = json.dumps(fake_record(ex))
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(text + " " * (RECORD_FILE_BYTES + 1 - len(text)), encoding="utf-8")  # valid JSON, too large
    with pytest.raises(StoreError) as err:
        load_record("ch/a.py", "cpu", examples_dir)
    assert str(err.value).startswith(f"{path}: {RECORD_FILE_BYTES + 1:,} bytes, more than the "
                                     f"{RECORD_FILE_BYTES:,}"), str(err.value)
    path.write_text(text, encoding="utf-8")
    assert load_record("ch/a.py", "cpu", examples_dir) is not None


def _nested(data: dict) -> str:
    return "[" * 100_000 + "]" * 100_000


def _huge_index(data: dict) -> str:
    data["cells"][0]["index"] = 10 ** 300
    return json.dumps(data)


def _nan_duration(data: dict) -> str:
    data["provenance"]["duration_s"] = float("nan")
    return json.dumps(data)


def _line_past_a_file(data: dict) -> str:
    data["cells"][0]["line"] = -4
    return json.dumps(data)


@pytest.mark.parametrize(("forge", "words"), [
    (_nested, "JSON nested too deep to be a record"), (_huge_index, "field cells[0].index"),
    (_nan_duration, "is not a duration"), (_line_past_a_file, "field cells[0].line: -4 is not a line")])
def test_a_record_no_capture_writes_is_refused_naming_its_field(write_example, examples_dir, forge, words):
    """What the format's types allow but no capture writes: each used to crash a tool (a RecursionError in
    every command, a file name too long in the build) or to pass ``validate_outputs``."""
    ex = parse_example(write_example("ch/a.py", OK), examples_dir)
    path = layout.record_path("ch/a.py", "cpu", examples_dir)
    path.parent.mkdir(parents=True)
    path.write_text(forge(fake_record(ex)), encoding="utf-8")
    with pytest.raises(StoreError) as err:
        load_record("ch/a.py", "cpu", examples_dir)
    assert str(err.value).startswith(f"{path}: ") and words in str(err.value), str(err.value)


def test_a_file_where_the_store_needs_a_folder_is_named(write_example, examples_dir, capsys):
    write_example("ch/a.py", OK)
    store = layout.store_dir(examples_dir)
    (store / "ch").mkdir(parents=True)
    (store / "ch" / "a").write_text("in the way")
    for args in ([], ["--force"], ["--list"]):
        proc = capture_here(examples_dir, capsys, *args)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 1 and "is a file where the store needs a folder" in out, (args, out)


# --- the site: make build ------------------------------------------------------------------------

def _tiny_site(repo: Path, pages: dict[str, str], examples: dict[str, bytes], package: bool = True) -> Path:
    """A copy of the pipeline package (its plugin, ``pytorch-notes``; none without ``package``) in ``repo``
    with one page per language and ``examples``, each with a made-up CPU record when it parses; returns ``repo``."""
    repo.mkdir(parents=True, exist_ok=True)
    if package:
        shutil.copytree(ROOT / "scripts" / "pytorch_notes", repo / "scripts" / "pytorch_notes",
                        ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "constraints.txt", repo / "constraints.txt")
    shutil.copytree(ROOT / "docs" / "overrides", repo / "docs" / "overrides")  # the notebook pages' template
    config = {"site_name": "t", "site_url": "http://127.0.0.1:8000/", "docs_dir": "docs",
              "exclude_docs": "/overrides/\n",
              "theme": {"name": "material", "language": "zh", "font": False, "custom_dir": "docs/overrides"},
              "markdown_extensions": ["admonition", "attr_list", "md_in_html", "pymdownx.superfences",
                                      "pymdownx.highlight", "pymdownx.details",
                                      {"pymdownx.tabbed": {"alternate_style": True}}],
              "plugins": ["pytorch-notes",
                          {"i18n": {"docs_structure": "folder", "reconfigure_material": True, "languages": [
                  {"locale": "zh", "name": "中文", "default": True, "build": True},
                  {"locale": "en", "name": "English", "build": True}]}},
                          {"mkdocs-jupyter": {"include": ["*.ipynb"], "ignore": ["*.md"], "execute": False,
                                              "include_source": False, "ignore_h1_titles": True}}]}
    (repo / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    for rel, text in pages.items():
        for lang in ("zh", "en"):
            (repo / "docs" / lang / rel).parent.mkdir(parents=True, exist_ok=True)
            (repo / "docs" / lang / rel).write_text(text, encoding="utf-8")
    examples_dir = repo / "examples"
    for rel, data in examples.items():
        (examples_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        (examples_dir / rel).write_bytes(data)
        try:
            ex = parse_example(examples_dir / rel, examples_dir)
        except ExampleError:
            continue
        record = layout.record_path(rel, "cpu", examples_dir)
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(fake_record(ex)), encoding="utf-8")
    return repo


def _build(repo: Path, strict: bool = True, scripts: Path | None = None) -> tuple[subprocess.CompletedProcess, str]:
    """``mkdocs build`` of ``repo`` with the package of ``scripts`` (default: the copy's own)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": str(scripts or repo / "scripts"), **bytecode_env()}
    proc = subprocess.run([str(MKDOCS), "build", "--site-dir", str(repo / "site"), *(["--strict"] if strict else [])],
                          cwd=repo, capture_output=True, text=True, timeout=300, env=env)
    return proc, proc.stdout + proc.stderr


PAGE = "# Home\n\n::: example ch/ok.py\n"


def test_hostile_files_under_examples_fail_the_build_naming_them_and_are_never_published(tmp_path, outside):
    """One tiny site with every hostile kind of file at once (a link to a file outside, a file that is not
    UTF-8, a folder named like an example). Unembedded, each is named as an error without a traceback and
    none is published (no download, no notebook, the outside file's text nowhere in the site), while the
    rest of the site is built; embedded, the page's line is named too. (The control, a tiny site that
    builds strictly: test_page_faults.test_valid_internal_links_build.)"""
    repo = _tiny_site(tmp_path / "repo", {"index.md": PAGE},
                      {"ch/ok.py": OK.encode(), "ch/latin.py": b'# %%\nprint("caf\xe9")\n',
                       "ch/leak.py": (outside / "secret.py").read_bytes()})
    (repo / "examples" / "ch" / "leak.py").unlink()  # it had its record made; now the link takes its place
    (repo / "examples" / "ch" / "leak.py").symlink_to(outside / "secret.py")
    (repo / "examples" / "ch" / "x.py").mkdir()
    proc, out = _build(repo, strict=False)
    assert proc.returncode == 0 and "Traceback" not in out, out  # the rest of the site is built
    assert "examples/ch/leak.py:1: resolves outside examples/ (-> " in out, out
    assert "examples/ch/latin.py:2: not UTF-8" in out, out
    assert "examples/ch/x.py:1: is a directory, not an example file" in out, out
    site = repo / "site"
    assert (site / "examples" / "ch" / "ok.py").is_file()
    for lang in ("", "en/"):
        assert not (site / f"{lang}examples" / "ch" / "leak.py").exists()
        assert not (site / f"{lang}examples" / "ch" / "latin.py").exists()
    assert [p for p in site.rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()] == []
    assert _build(repo)[0].returncode != 0, "the same files fail the strict build"

    for lang in ("zh", "en"):
        (repo / "docs" / lang / "index.md").write_text(PAGE + "\n::: example ch/leak.py\n", encoding="utf-8")
    proc, out = _build(repo, strict=False)
    assert proc.returncode != 0 and "Traceback" not in out, out
    assert "docs/zh/index.md:5: examples/ch/leak.py:1: resolves outside examples/ (-> " in out, out
    assert not list(repo.rglob("leak.ipynb")), "a notebook was written from the file outside"


def test_a_copy_of_a_checkout_builds_from_its_own_folders_with_another_checkouts_package(tmp_path):
    """The copy has no package of its own: this checkout's builds it (``PYTHONPATH``), and the build reads
    the copy's pages, its example and record (which this checkout does not have) and keeps its caches
    (notebooks, page renders, zips) in the copy's ``.cache/pytorch-notes/``."""
    assert not (ROOT / "examples" / "copy").exists() and not (ROOT / "docs" / "zh" / "only-copy.md").exists()
    source = '# %%\nprint("made in the copy")\n'
    pages = {"index.md": "# Home\n", "only-copy.md": "# Copy\n\n::: example copy/own.py\n"}
    repo = _tiny_site(tmp_path / "copy", pages, {"copy/own.py": source.encode()}, package=False)
    record = layout.record_path("copy/own.py", "cpu", repo / "examples")
    data = json.loads(record.read_text(encoding="utf-8"))
    data["cells"][0]["outputs"][0]["text"] = "RECORDED-IN-THE-COPY\n"
    record.write_text(json.dumps(data), encoding="utf-8")
    assert not (repo / "scripts").exists()
    proc, out = _build(repo, scripts=ROOT / "scripts")
    assert proc.returncode == 0 and "Traceback" not in out, out
    site = repo / "site"
    for lang in ("", "en/"):
        page = (site / lang / "only-copy" / "index.html").read_text(encoding="utf-8")
        assert "RECORDED-IN-THE-COPY" in page, f"{lang or 'zh/'}: the copy's record is not shown"
        assert (site / lang / "examples" / "copy" / "own.py").read_text(encoding="utf-8").startswith(source)
        assert "RECORDED-IN-THE-COPY" in (site / lang / "notebooks" / "only-copy" / "index.html").read_text("utf-8")
        assert (site / lang / "downloads" / "pytorch-notes-only-copy.zip").is_file()
    cache = repo / ".cache" / "pytorch-notes"
    assert {p.name for p in cache.iterdir()} >= {"notebooks", "notebooks.json", "markdown", "bundles", "memo"}
    for lang in ("zh", "en"):
        assert "RECORDED-IN-THE-COPY" in (cache / "notebooks" / lang / "only-copy.ipynb").read_text(encoding="utf-8")
        assert not (ROOT / ".cache" / "pytorch-notes" / "notebooks" / lang / "only-copy.ipynb").exists()
