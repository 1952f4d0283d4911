"""Other packages' private names and undocumented attributes are used in scripts/pytorch_notes/site/upstream.py
only, at most upstream.LIMIT accesses there (issue 43), and an untested version stops the build with a clear
message."""

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
# Other packages' attributes that are neither underscored nor documented, which the scan cannot tell from
# the names alone: read or written on anything but the project's own ``self``/``cls``, they count as private.
UNDOCUMENTED = {
    # mkdocs-static-i18n: its plugin's state and what it sets on the Files it knows (its documented
    # interface is its configuration, its page context variables and Material's theme language/extra.alternate)
    "building", "current_language", "current_language_config", "extra_alternate", "i18n_files_per_language",
    "locale", "locale_alternate_of", "alternates",
    # ... and where it keeps a page's language menu: an attribute of config.extra (Jinja reads it first)
    "alternate",
    # MkDocs: its live-reload server's observer; what Page.render leaves on a page besides content and toc
    "observer", "present_anchor_ids", "links_to_anchors",
    # watchdog: an observer's queue of events (documented as a property, but not as a way in)
    "event_queue",
    # Material for MkDocs: its search plugin's index and its previous one
    "search_index", "search_index_prev",
}
KNOWN_ELSEWHERE: set[str] = set()  # "path name" of an access left outside upstream.py for a stated reason


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


def _own_object(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def foreign_private(trees) -> list[str]:
    """Each use of another package's private name: an attribute or ``getattr`` string the project does not
    define, an attribute of ``UNDOCUMENTED`` on anything but ``self``/``cls``, or an import of a private
    module or name from another package. As ``path:line name``."""
    own = _own_names(trees)
    found = []
    for path, tree in trees.items():
        rel = path.relative_to(ROOT)
        for node in ast.walk(tree):
            hits = []
            if isinstance(node, ast.Attribute) and (
                    (_private(node.attr) and node.attr not in own)
                    or (node.attr in UNDOCUMENTED and not _own_object(node.value))):
                hits.append(node.attr)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
                  and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                  and ((_private(node.args[1].value) and node.args[1].value not in own)
                       or (node.args[1].value in UNDOCUMENTED and not _own_object(node.args[0])))):
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


def test_the_scan_finds_each_kind_of_access():
    code = ("import mkdocs_jupyter._x\nfrom mkdocs_jupyter.plugin import _get_cache_path\n"
            "p._used_cache_paths\ni18n.building\nself.building\ngetattr(i18n, 'current_language', None)\n"
            "getattr(self, 'building')\nserver.observer.event_queue\nf.alternates = {}\nsys._getframe\n")
    hits = foreign_private({ROOT / "x.py": ast.parse(code)})
    assert sorted(h.split(":", 1)[1] for h in hits) == [  # line and name; self's own, sys._getframe are not
        "1 mkdocs_jupyter._x", "2 _get_cache_path", "3 _used_cache_paths", "4 building", "6 current_language",
        "8 event_queue", "8 observer", "9 alternates"], hits


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
    for packages, reference in upstream.ACCESSES.values():
        assert packages and set(packages) <= set(upstream.TESTED) and reference
    # a tested range per package that an access touches, and no other (its message names the accesses)
    assert set(upstream.TESTED) == {p for packages, _ in upstream.ACCESSES.values() for p in packages}


def test_untested_version_stops_the_build_with_a_clear_message():
    from mkdocs.exceptions import PluginError

    upstream.check_versions({"mkdocs": "1.6.1", "mkdocs-jupyter": "0.26.3"})  # tested: passes
    with pytest.raises(PluginError) as raised:
        upstream.check_versions({"mkdocs-jupyter": "0.27.0"})
    message = str(raised.value)
    assert "mkdocs-jupyter 0.27.0" in message and ">=0.26.3,<0.27" in message
    assert "jupyter_cache_path" in message and "upstream.py" in message
    with pytest.raises(PluginError, match=r"watchdog 8\.0\.0 .*live_reload_trigger"):
        upstream.check_versions({"watchdog": "8.0.0"})  # an access to two packages: either stops it
    upstream.check_versions()  # the installed versions are the tested ones
