"""Stages that only look down (issue 43, item 4): the import graph of ``scripts/``.

Every module under ``scripts/`` is parsed with ``ast`` (imports at the top, in functions and in classes
alike) and placed in a stage; the test fails on an import of a later stage from an earlier one, and on any
cycle between modules (strongly connected components, Tarjan), naming the modules and the lines.

The stages and their order come from one place, the English layout table of CONTRIBUTING.md (the rows of
"| stage | module | what it does |", top to bottom: base, parse, execute, store, render, MkDocs glue, commands),
the same table ``test_layout_doc.py`` checks for completeness. A module is in the row that names its path
(``store/model.py``), a folder above it (``capture/``) or, for the files listed beside another, its file
name (``channels.py``). The thin entry points in ``scripts/`` and the benchmark package ``scripts/benchmarks/``
come after every row: the stage "tools", which nothing else imports. The commands (``capture/`` among them)
come after render, so ``capture/check.py`` may compare outputs through ``render/kinds.py``'s registry.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
PACKAGE = "pytorch_notes"
TOOLS = "tools"  # the stage after the table's rows: scripts/*.py and scripts/benchmarks/
HEADER = "| stage | module | what it does |"


def _stage_rows(contributing: str) -> list[tuple[str, set[str]]]:
    """``[(stage, names), ...]`` in the order of the English layout table: the names a row gives in
    backticks (``site/plugin.py``, ``channels.py``, ``capture/``)."""
    en = contributing.split("\n## English\n", 1)[1]
    start = en.index(HEADER)
    rows = []
    for line in en[start:en.index("\n\n", start)].splitlines()[2:]:
        cells = line.split("|")
        rows.append((cells[1].strip(), set(re.findall(r"`([\w/]+(?:\.py|/))`", cells[2]))))
    return rows


def module_name(path: Path) -> str:
    """``scripts/pytorch_notes/store/model.py`` -> ``pytorch_notes.store.model`` (a package: its name)."""
    parts = list(path.relative_to(SCRIPTS).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def stage_of(module: str, rows: list[tuple[str, set[str]]]) -> str:
    """The stage of a module of ``scripts/`` (``pytorch_notes.store.model`` -> ``store``).

    Raises ``LookupError`` when the table places a module in no row, or by its bare file name in two."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return TOOLS
    rel = "/".join(parts[1:])
    if not rel:  # the package's __init__ holds nothing: the first stage
        return rows[0][0]
    # a package's __init__ is in the stage of its folder
    candidates = [rel + ".py", *("/".join(parts[1:i]) + "/" for i in range(len(parts), 1, -1))]
    for name in candidates:
        for stage, names in rows:
            if name in names:
                return stage
    bare = [stage for stage, names in rows if rel.rsplit("/", 1)[-1] + ".py" in names]
    if not bare:  # a package (``execute``): the stage of the modules the table names in it
        bare = sorted({stage for stage, names in rows if any(n.startswith(rel + "/") for n in names)})
    if len(bare) != 1:
        raise LookupError(f"CONTRIBUTING's layout table places {module} in {len(bare)} stages: {bare}")
    return bare[0]


def modules() -> dict[str, Path]:
    """Every module under ``scripts/`` by its import name."""
    return {module_name(p): p for p in sorted(SCRIPTS.rglob("*.py")) if "__pycache__" not in p.parts}


def imports(module: str, path: Path, known: set[str]) -> list[tuple[str, int]]:
    """``[(imported module of scripts/, line), ...]`` of every import statement in ``path`` (at any depth:
    top level, functions, ``if`` blocks). ``from a.b import c`` counts as ``a.b.c`` when that is a module,
    else as ``a.b``; relative imports are resolved against the module's package."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in dict.fromkeys(targets):
            # ``import a.b.c`` binds (and runs) a, a.b and a.b.c: the deepest one of scripts/ is the edge
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module:
                found.append((target, node.lineno))
    return found


def graph() -> dict[str, list[tuple[str, int]]]:
    """``{module: [(imported module, line), ...]}`` for every module under ``scripts/``."""
    mods = modules()
    return {m: imports(m, p, set(mods)) for m, p in mods.items()}


def _parents(module: str) -> set[str]:
    """The packages whose ``__init__`` importing ``module`` runs first: not an edge back to them."""
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def cycles(edges: dict[str, list[tuple[str, int]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w, _ in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


@pytest.fixture(scope="module")
def rows():
    return _stage_rows((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def edges():
    return graph()


def test_the_stages_come_from_contributing(rows):
    assert [stage for stage, _ in rows] == ["base", "parse", "execute", "store", "render", "MkDocs glue", "commands"]
    assert stage_of("pytorch_notes.store.model", rows) == "store"
    assert stage_of("pytorch_notes.execute.channels", rows) == "execute"
    assert stage_of("pytorch_notes.capture.check", rows) == "commands"
    assert stage_of("pytorch_notes.render.times", rows) == "render"
    assert stage_of("benchmarks.loop", rows) == TOOLS


def test_the_graph_sees_every_kind_of_import(edges):
    """The parser's own check: an import in a function, a relative one, ``from package import module``."""
    assert ("pytorch_notes.execute.limits", 65) in edges["pytorch_notes.execute.runner"]  # from . import limits
    assert any(m == "pytorch_notes.execute.streams" for m, _ in edges["pytorch_notes.execute.channels"])
    assert len(edges) > 100 and sum(map(len, edges.values())) > 300


def test_no_module_imports_a_later_stage(rows, edges):
    order = {stage: i for i, (stage, _) in enumerate(rows)} | {TOOLS: len(rows)}
    paths = modules()
    wrong = []
    for module, targets in edges.items():
        mine = stage_of(module, rows)
        for target, line in targets:
            theirs = stage_of(target, rows)
            if order[theirs] > order[mine]:
                wrong.append(f"{paths[module].relative_to(ROOT)}:{line} ({mine}) imports {target} ({theirs})")
    assert not wrong, "an earlier stage imports a later one:\n" + "\n".join(sorted(wrong))


def test_no_two_modules_import_each_other(edges):
    paths = modules()
    # a package's __init__ re-exporting a submodule is not a cycle with the submodule's import of the package
    plain = {m: [(t, n) for t, n in targets if t not in _parents(m)] for m, targets in edges.items()}
    found = cycles(plain)
    report = []
    for component in found:
        inside = set(component)
        report.append(" <-> ".join(component) + ":\n" + "\n".join(
            f"  {paths[m].relative_to(ROOT)}:{n} imports {t}"
            for m in component for t, n in plain[m] if t in inside))
    assert not found, "modules that import each other (a cycle):\n" + "\n".join(report)


def test_a_cycle_and_a_backward_import_are_found(rows):
    """The checks themselves can fail: a made-up graph with both faults."""
    edges = {"a": [("b", 1)], "b": [("c", 2)], "c": [("a", 3)], "d": [("a", 4)]}
    assert cycles(edges) == [["a", "b", "c"]]
    assert stage_of("pytorch_notes.parse", rows) == "parse"
    assert stage_of("pytorch_notes.site.plugin", rows) == "MkDocs glue"
