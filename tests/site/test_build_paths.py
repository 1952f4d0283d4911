"""What a build publishes and where it reads (issue 26, items 4 and 6; issue 28, item 1): hostile files under
``examples/`` fail the build naming them and are never published, and a build takes its folders from the MkDocs
configuration, so a copy of a checkout built with this checkout's package reads and writes its own. Strict
builds of a tiny copy of the site (the real plugin, one page per language).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from conftest import OUTSIDE_SECRET as SECRET
from conftest import bytecode_env
from pytorch_notes.parse import ExampleError, parse_example
from pytorch_notes.store import layout
from test_store import fake_record

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = Path(sys.executable).with_name("mkdocs")
OK = '# %%\nprint("hello")\n'


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
