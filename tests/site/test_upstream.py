"""Other packages' private names are used in scripts/pytorch_notes/site/upstream.py only, at most
upstream.LIMIT accesses there (issue 43), and an untested version stops the build with a clear message."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pytorch_notes.site import upstream

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
UPSTREAM = SCRIPTS / "pytorch_notes" / "site" / "upstream.py"
OWN = {"pytorch_notes", "benchmarks"} | {p.stem for p in SCRIPTS.glob("*.py")}
# documented despite the underscore: Python's sys._getframe and sys._current_frames, IPython's display protocol
DOCUMENTED = {"_getframe", "_current_frames", "_repr_html_"}
# not yet moved (issue 43, item 1, left open): the execute stage cannot import site/upstream.py;
# matplotlib >= 3.8 has the public Figure.get_suptitle, to use once a capture re-checks the records
KNOWN_ELSEWHERE = {"scripts/pytorch_notes/execute/runner.py _suptitle"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _trees() -> dict[Path, ast.AST]:
    return {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(SCRIPTS.rglob("*.py"))}


def _own_names(trees) -> set[str]:
    """Private names the project defines: functions, classes, module names and ``self``/``cls`` attributes."""
    names = {p.stem for p in trees}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                names.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return {n for n in names if _private(n)} | {"_pytorch_notes_owner", "_pytorch_notes_listing"} | DOCUMENTED


def foreign_private(trees) -> list[str]:
    """Each use of another package's private name: an attribute or ``getattr`` string the project does not
    define, or an import of a private module or name from another package. As ``path:line name``."""
    own = _own_names(trees)
    found = []
    for path, tree in trees.items():
        rel = path.relative_to(ROOT)
        for node in ast.walk(tree):
            hits = []
            if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
                hits.append(node.attr)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
                  and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                  and _private(node.args[1].value) and node.args[1].value not in own):
                hits.append(node.args[1].value)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] not in OWN:
                    hits += [node.module] if any(_private(p) for p in node.module.split(".")) else []
                    hits += [a.name for a in node.names if _private(a.name)]
            elif isinstance(node, ast.Import):
                hits += [a.name for a in node.names if a.name.split(".")[0] not in OWN
                         and any(_private(p) for p in a.name.split("."))]
            found += [f"{rel}:{node.lineno} {h}" for h in hits]
    return found


def test_private_names_of_other_packages_only_in_upstream():
    trees = _trees()
    outside = [hit for hit in foreign_private(trees) if not hit.startswith(str(UPSTREAM.relative_to(ROOT)))
               and f"{hit.split(':')[0]} {hit.split()[-1]}" not in KNOWN_ELSEWHERE]
    assert outside == [], "move these into scripts/pytorch_notes/site/upstream.py, one @access function each"
    inside = foreign_private({UPSTREAM: trees[UPSTREAM]})
    assert inside, "the scan finds nothing in upstream.py: it is broken"


def test_accesses_counted_and_at_most_the_limit():
    tree = ast.parse(UPSTREAM.read_text(encoding="utf-8"))
    decorated = [f.name for f in tree.body if isinstance(f, ast.FunctionDef)
                 and any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "access" for d in f.decorator_list)]
    assert sorted(decorated) == sorted(upstream.ACCESSES)
    assert len(decorated) <= upstream.LIMIT == 6, f"{len(decorated)} accesses: {decorated}"
    # every function touching a private name of another package is one of them
    for f in tree.body:
        if isinstance(f, ast.FunctionDef) and f.name not in decorated:
            assert not foreign_private({UPSTREAM: f}), f"{f.name} uses a private name without @access"
    for package, reference in upstream.ACCESSES.values():
        assert package in upstream.TESTED and reference


def test_untested_version_stops_the_build_with_a_clear_message():
    from mkdocs.exceptions import PluginError

    upstream.check_versions({"mkdocs": "1.6.1", "mkdocs-jupyter": "0.26.3"})  # tested: passes
    with pytest.raises(PluginError) as raised:
        upstream.check_versions({"mkdocs-jupyter": "0.27.0"})
    message = str(raised.value)
    assert "mkdocs-jupyter 0.27.0" in message and ">=0.26.3,<0.27" in message
    assert "jupyter_cache_path" in message and "upstream.py" in message
    upstream.check_versions()  # the installed versions are the tested ones
