"""Dirty rebuilds under ``make serve`` write what a full build writes (pytorch_notes.site.incremental),
and the build cache (pytorch_notes.site.buildcache) changes no output."""

from __future__ import annotations

import base64
import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from benchmarks.repo import copy_repo
from pytorch_notes.settings import LANGUAGES
from pytorch_notes.site import incremental
from pytorch_notes.site.incremental import Plan, Serve
from pytorch_notes.site.project import Project

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "fixtures" / "serve_rebuilds.py"


def _tree(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}


def _differences(a: Path, b: Path) -> list[str]:
    left, right = _tree(a), _tree(b)
    out = [f"only in the full build: {p}" for p in sorted(left - right)]
    out += [f"only in the served site: {p}" for p in sorted(right - left)]
    out += [f"differs: {p}" for p in sorted(left & right) if not filecmp.cmp(a / p, b / p, shallow=False)]
    return out


# The pages the served copy keeps: the ones the steps edit or whose examples they edit, the home pages (their
# course map lists every chapter) and the computation-times page (it lists every record). The other chapters
# cost two builds of ~30 s in a copy, whose build cache misses (its files' stat keys differ), and add nothing a
# dirty rebuild could get wrong that these do not.
KEPT = ("index.md", "tensors.md", "broadcasting.md", "autograd.md", "graph.md", "times.md")


def _keep_only(repo: Path, kept: tuple[str, ...]) -> None:
    """Cut the course of the copy ``repo`` to the pages ``kept`` (in both languages): the others' files go,
    and so do their lines in mkdocs.yml's nav, and a nav section left empty. Links to the pages gone become
    warnings of a build without ``--strict``, the same in every build."""
    config = repo / "mkdocs.yml"
    head, nav = config.read_text(encoding="utf-8").split("\nnav:\n", 1)
    lines = [ln for ln in nav.splitlines() if not ln.strip().endswith(".md") or ln.split("- ", 1)[-1] in kept]
    lines = [ln for i, ln in enumerate(lines) if not (ln.startswith("  - ") and ln.endswith(":")) or
             (i + 1 < len(lines) and lines[i + 1].startswith("      - "))]
    assert sorted(ln.split("- ", 1)[-1] for ln in lines if ln.endswith(".md")) == sorted(kept), lines
    config.write_text(head + "\nnav:\n" + "\n".join(lines) + "\n", encoding="utf-8")
    for lang in LANGUAGES:
        for page in (repo / "docs" / lang).glob("*.md"):
            if page.name not in kept:
                page.unlink()


@pytest.mark.xdist_group("incremental")
def test_dirty_rebuilds_after_editing_a_page_an_example_and_a_record_equal_a_full_build(tmp_path, site):
    repo = copy_repo(tmp_path / "repo", cache=True)  # after the `site` build: mkdocs-jupyter's cache is warm
    _keep_only(repo, KEPT)
    # a record of a chapter no other step edits: a later step that rebuilt the page would hide a stale one
    record = next((repo / "examples" / "_outputs" / "graph").glob("*/cpu.json"))
    example = repo / "examples" / "autograd" / "backward.py"
    comment = next(ln for ln in example.read_text(encoding="utf-8").splitlines() if "# zh: " in ln)
    zh_comment = comment.split("# zh: ", 1)[1].split(" | en:", 1)[0]
    # a figure of a record replaced by another's: its file, the page and the notebook must follow (what the
    # served builds keep of an example, embed.Embeds, is read again when its record changes)
    figure = "examples/_outputs/broadcasting/diagram/cpu.json"
    data = [next(o["data"] for c in json.loads((repo / f).read_text(encoding="utf-8"))["cells"] for o in c["outputs"]
                 if o["type"] == "image") for f in (figure, "examples/_outputs/graph/grad_fn_tree/cpu.json")]
    steps = [
        [{"path": "docs/zh/tensors.md", "append": "\n新加的一句话，英文页因此落后于中文页。\n"}],
        [{"path": "examples/autograd/backward.py", "replace": [zh_comment, zh_comment + "（改过）"]}],
        [{"path": str(record.relative_to(repo)), "replace": ['"captured_at": "', '"captured_at": "X']}],
        [{"path": figure, "replace": data}],
    ]  # no step that rebuilds everything: it would repair what an earlier step left stale
    (tmp_path / "steps.json").write_text(json.dumps(steps), encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(repo / "scripts")}
    served = tmp_path / "served"
    proc = subprocess.run([sys.executable, str(DRIVER), str(served), str(tmp_path / "steps.json")], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "rebuild: 4 page(s)" in proc.stderr, proc.stderr[-3000:]  # the edited page, its twin, the home pages
    assert proc.stderr.count("rebuild: everything") == 1  # the first build only
    shutil.rmtree(repo / ".cache" / "pytorch-notes")  # the full build runs without the build cache
    # ... and over an older site (sitedir.py): what it does not write again must go, hidden files stay
    full = tmp_path / "full"
    shutil.copytree(served, full)
    for leftover in ("gone/index.html", "en/gone/index.html", "notebooks/gone/x/index.html", "old.txt"):
        (full / leftover).parent.mkdir(parents=True, exist_ok=True)
        (full / leftover).write_text("from an older build", encoding="utf-8")
    (full / ".hidden").write_text("kept, as MkDocs keeps it", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--site-dir", str(full)], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    (full / ".hidden").unlink()
    assert not (full / "gone").exists() and not (full / "en" / "gone").exists()
    assert _differences(full, served) == []
    english = (served / "en" / "autograd" / "index.html").read_text(encoding="utf-8")
    chinese = (served / "autograd" / "index.html").read_text(encoding="utf-8")
    assert "（改过）" in chinese and "（改过）" not in english
    assert (served / "outputs/broadcasting/diagram/cell1-1.png").read_bytes() == base64.b64decode(data[1])


def test_the_plan_rebuilds_what_an_edit_affects(monkeypatch, tmp_path):
    serve = Serve()
    inputs = {"docs/zh/a.md": (1,), "docs/en/a.md": (1,), "examples/ch/x.py": (1,),
              "examples/_outputs/ch/x/cpu.json": (1,), "mkdocs.yml": (1,)}
    headings = {"docs/zh/a.md": "甲", "docs/en/a.md": "A"}
    # a checkout whose folders are named otherwise: the inputs are named as in this repository
    project = Project(tmp_path / "site.yml", tmp_path, tmp_path / "pages", tmp_path / "ex", tmp_path / "cache")
    monkeypatch.setattr(incremental, "_inputs", lambda p: dict(inputs) if p is project else None)
    monkeypatch.setattr(incremental, "_headings", lambda d: dict(headings) if d == project.docs_dir else None)
    embeds = [SimpleNamespace(rel="ch/x.py", page=f"pages/{lang}/a.md") for lang in ("zh", "en")]
    monkeypatch.setattr(incremental, "all_embeds", lambda d: embeds if d == project.docs_dir else None)
    assert serve.decide(True, project).full  # the first build
    assert serve.decide(True, project).pages == set()  # nothing changed
    inputs["docs/zh/a.md"] = (2,)
    p = serve.decide(True, project)
    assert not p.full
    # the page, its twin, and the home pages, whose course map shows every page's description and count
    assert {Path(x).relative_to(project.docs_dir).as_posix() for x in p.pages} == {
        "zh/a.md", "en/a.md", "zh/index.md", "en/index.md"}
    inputs["examples/_outputs/ch/x/cpu.json"] = (2,)
    p = serve.decide(True, project)
    # the pages embedding the example, and their chapters' notebooks (files of the build cache)
    assert {Path(x).relative_to(tmp_path).as_posix() for x in p.pages} == {
        "pages/zh/a.md", "pages/en/a.md", "cache/notebooks/zh/a.ipynb", "cache/notebooks/en/a.ipynb"}
    headings["docs/en/a.md"] = "A, renamed"
    assert "first heading of docs/en/a.md" in serve.decide(True, project).reason
    inputs["mkdocs.yml"] = (2,)
    assert serve.decide(True, project).full
    inputs["docs/zh/b.md"] = (1,)
    assert "appeared" in serve.decide(True, project).reason
    assert not serve.decide(False, project).pages and serve.decide(False, project).full  # make build: everything


def test_the_served_search_index_replaces_a_rebuilt_pages_entries_in_place():
    base = {"config": {"lang": ["en"]}, "docs": [
        {"location": "a/", "text": "a"}, {"location": "b/", "text": "old"}, {"location": "b/#x", "text": "old x"},
        {"location": "c/", "text": "c"}]}
    serve = Serve(dirty=True, search={"en": base}, plan=Plan(False, "test", set()))
    serve.record_entries("en/b/", [{"location": "en/b/", "text": "new"}])
    serve.record_entries("b/", [{"location": "b/", "text": "zh"}])
    docs = serve.serve_index("en", None)["docs"]
    assert [d["text"] for d in docs] == ["a", "new", "c"]
    serve.plan = Plan(True, "test")
    assert [d["location"] for d in serve.serve_index("en", {"config": {}})["docs"]] == ["b/"]
    serve.dirty = False
    assert serve.serve_index("en", base) is None  # make build splits Material's index itself


@pytest.mark.parametrize("dirty", [True, False])
def test_under_make_serve_materials_own_index_stays_empty(tmp_path, dirty):
    """Material merges a served build's index into the last one's (its ``search_index_prev``): the entries
    of make serve go to ``Serve`` only, or the merged index grew with every save."""
    from material.plugins.search.plugin import SearchIndex
    from mkdocs.structure.toc import get_toc
    from pytorch_notes.site import buildcache
    from pytorch_notes.site.cache import Store

    serve = Serve(dirty=dirty)
    buildcache.install(Store(tmp_path / "cache"), serve)
    page = SimpleNamespace(url="a/", title="A", meta={}, toc=get_toc([]), content="<h1 id=a>A</h1><p>alpha beta</p>")
    for _ in range(2):  # the second time from the cache
        index = SearchIndex(lang=["en"], separator=r"[\s\-]+", pipeline=[], fields={})
        index.add_entry_from_context(page)
        assert serve.entries["a/"] and "alpha" in json.dumps(serve.entries["a/"])
        assert index.entries == ([] if dirty else serve.entries["a/"])


def test_the_inputs_are_every_file_of_pages_examples_and_code_with_its_stat(tmp_path, monkeypatch):
    """``_inputs`` (what ``Serve.decide`` compares): every file under the pages, the examples and the build
    code, nested folders included, named as in this repository; not hidden files, bytecode caches or the
    inside of a linked folder; an edit changes the file's key."""
    files = ["pages/zh/a.md", "ex/ch/x.py", "ex/_outputs/ch/x/cpu.json", "code/site/m.py",
             "ex/.capture.lock", "code/site/__pycache__/m.cpython-311.pyc", "elsewhere/y.py"]
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(rel, encoding="utf-8")
    (tmp_path / "ex" / "linked").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    (tmp_path / "site.yml").write_text("site_name: T\n", encoding="utf-8")
    monkeypatch.setattr(incremental, "CODE", tmp_path / "code")
    project = Project(tmp_path / "site.yml", tmp_path, tmp_path / "pages", tmp_path / "ex", tmp_path / "cache")
    found = incremental._inputs(project)
    assert sorted(found) == ["docs/zh/a.md", "examples/_outputs/ch/x/cpu.json", "examples/ch/x.py", "mkdocs.yml",
                             "scripts/site/m.py"]
    (tmp_path / "ex/ch/x.py").write_text("edited, longer", encoding="utf-8")
    again = incremental._inputs(project)
    assert [k for k in found if found[k] != again[k]] == ["examples/ch/x.py"]
