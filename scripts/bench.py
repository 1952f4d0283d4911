"""``make bench``: measure the site against the alternatives, in one run.

Usage::

    python scripts/bench.py [--repeat N] [--exec-repeat N] [--quick] [--skip-tests] [--only SECTION,...]
                            [--scale 1,4,16] [--capture-examples N] [--test-args ARGS]

``make bench ARGS="--quick --skip-tests"`` takes a few minutes (for development); the full run takes
about 35 minutes on a 2-core machine (the executing build, the x16 scaling and the three ``make test``
runs dominate) and should run on a quiet machine.
A section that fails is reported (exit status 1); the others still run.

Sections (all by default, in this order):

* ``build``: strict build of both languages from stored outputs, cold (``.cache`` emptied) and
  warm (mkdocs-jupyter cache filled by the previous build); the page weights are measured on
  the warm build's output (``weight``).
* ``exec``: the same site built by a build that executes the examples: mkdocs-jupyter with
  ``execute: true`` and its cache off, on the notebooks the hook writes, stripped of their stored
  outputs by an extra hook. The page embeds are kept (they read the store, which costs little),
  so the variant does the stored-output build's work plus the execution. ``--quick`` executes one
  small chapter's notebooks and estimates the rest from the stored run times.
* ``incremental``: ``scripts/capture.py`` with nothing changed (no example may start and no store
  file may change), then after appending a newline to one example (exactly one may run).
* ``capture``: ``capture.py --force -j 1`` and ``-j 2`` against the sum of bare
  ``python example.py`` runs, over a subset spread across run times of the examples that declare no
  raising cell (a bare run of one that does stops at the declared exception).
* ``scaling``: warm build time with the content replicated 1x, 4x and 16x (pages, examples and
  outputs copied under new chapter names in both languages, nav extended).
* ``weight``: page weight (html + the css, js and images it references; no search index; shared
  assets counted on every page, as a browser without cache loads them) and search index sizes.
* ``tests``: wall time of ``make test``.

Every measurement runs in a temporary copy of the repository (removed afterwards); the repository
itself is only written under ``artifacts/bench/`` (``bench-<date>.json`` and ``latest.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import asdict, dataclass, field
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml  # PyYAML comes with MkDocs
from pytorch_notes.execute.supervise import CHILD_ENV
from pytorch_notes.pages import language_pages
from pytorch_notes.parse import discover_examples, parse_example
from pytorch_notes.settings import EXAMPLES_DIR, LANGUAGES, REPO_ROOT
from pytorch_notes.store.records import load_record

OUT_DIR = REPO_ROOT / "artifacts" / "bench"
VENV_BIN = Path(sys.executable).parent
SECTIONS = ("build", "exec", "incremental", "capture", "scaling", "weight", "tests")
IGNORED_TOP = {".venv", "site", "site-offline", ".cache", "artifacts", ".pytest_cache", ".ruff_cache"}
OPS = {"<": float.__lt__, "<=": float.__le__, ">": float.__gt__, ">=": float.__ge__, "==": float.__eq__}
_EMBED_SUB = re.compile(r"^(::: example )([A-Za-z0-9_\-]+)/", re.MULTILINE)


class BenchError(RuntimeError):
    """A measured command failed or did not do what it must (the message says which and why)."""


# ---------------------------------------------------------------- figures and the table


@dataclass
class Figure:
    """One measured figure: several samples, summarised by median, min and max.

    Attributes:
        name: what was measured, e.g. ``"build, stored outputs (warm)"``.
        unit: ``"s"``, ``"ms"``, ``"x"`` (a ratio), ``"KB"`` (1000 bytes) or ``""`` (a count).
        samples: one value per run.
        target: ``(op, value)`` with op in ``<``, ``<=``, ``>``, ``>=``, ``==``, checked on the median;
            None when the figure has no target.
        note: shown in the table (fewer runs, estimates, subsets).
    """

    name: str
    unit: str
    samples: list[float]
    target: tuple[str, float] | None = None
    note: str = ""
    low: float | None = None  # min/max override for ratios of two figures
    high: float | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def min(self) -> float:
        return self.low if self.low is not None else min(self.samples)

    @property
    def max(self) -> float:
        return self.high if self.high is not None else max(self.samples)

    @property
    def met(self) -> bool | None:
        """Whether the median meets the target (None without a target)."""
        if self.target is None:
            return None
        op, value = self.target
        return OPS[op](float(self.median), float(value))

    def as_dict(self) -> dict:
        d = asdict(self)
        d.update(median=self.median, min=self.min, max=self.max, met=self.met)
        return d


def ratio(name: str, top: Figure, bottom: Figure, target=None, note: str = "") -> Figure:
    """``top / bottom`` of the medians; min and max are the extreme ratios of their samples."""
    return Figure(name, "x", [top.median / bottom.median], target, note or f"ratio of medians ({top.name})",
                  low=top.min / bottom.max, high=top.max / bottom.min)


def fmt(value: float, unit: str) -> str:
    """A value with its unit, e.g. ``fmt(9.81, "s") == "9.81 s"``, ``fmt(25.04, "x") == "25.0x"``."""
    if unit == "x":
        return f"{value:.2f}x" if value < 10 else f"{value:.1f}x"
    if unit == "":
        return f"{value:g}"
    if unit == "s":
        return f"{value:.2f} s" if value < 100 else f"{value:.0f} s"
    return f"{value:.1f} {unit}" if value < 100 else f"{value:.0f} {unit}"


def format_table(figures: list[Figure]) -> str:
    """The figures as a plain-text table: figure, median, min, max, target, met/missed, runs, note."""
    head = ("figure", "median", "min", "max", "target", "result", "runs", "note")
    rows = [head]
    for f in figures:
        target = f"{f.target[0]} {fmt(f.target[1], f.unit)}" if f.target else "-"
        result = {None: "-", True: "met", False: "MISSED"}[f.met]
        rows.append((f.name, fmt(f.median, f.unit), fmt(f.min, f.unit), fmt(f.max, f.unit), target, result,
                     str(len(f.samples)), f.note))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    left = (0, 4, 5, 7)  # text columns; numbers align right
    lines = ["  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
             .rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


# ---------------------------------------------------------------- temporary copies and commands


def copy_repo(dst: Path, src: Path = REPO_ROOT, *, cache: bool = False, git: bool = False) -> Path:
    """Copy the working tree (tracked and untracked, not ignored files) of ``src`` to ``dst``.

    Generated folders (site, .cache, docs/*/notebooks, artifacts) are left out; ``.cache`` is copied
    when ``cache`` and ``.git`` when ``git``. ``.venv`` becomes a link to the one running this script.
    """
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=src, check=True,
                                capture_output=True).stdout.decode().split("\0")
        files = [Path(p) for p in listed if p and (src / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        files = [p.relative_to(src) for p in src.rglob("*") if p.is_file()
                 and not ({p.relative_to(src).parts[0]} & (IGNORED_TOP | {".git"}))
                 and "__pycache__" not in p.parts and "notebooks" not in p.parts]
    for rel in files:
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src / rel, dst / rel)
    if cache and (src / ".cache").is_dir():
        shutil.copytree(src / ".cache", dst / ".cache")
    if git and (src / ".git").is_dir():
        shutil.copytree(src / ".git", dst / ".git", symlinks=True)
    (dst / ".venv").symlink_to(VENV_BIN.parent, target_is_directory=True)
    return dst


def bench_env(tmp: Path) -> dict[str, str]:
    """Environment of measured commands: no MkDocs 2 banner, Jupyter state kept under ``tmp``."""
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1",
            "JUPYTER_RUNTIME_DIR": str(tmp / "jupyter-runtime"), "IPYTHONDIR": str(tmp / "ipython")}


def timed(cmd: list[str], cwd: Path, env: dict, timeout: float = 3600) -> tuple[float, str]:
    """Run ``cmd`` and return (wall seconds, stdout+stderr). Raises BenchError if it fails."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    elapsed = time.perf_counter() - t0
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise BenchError(f"`{' '.join(map(str, cmd))}` (in {cwd}) exited {proc.returncode}:\n{out[-4000:]}")
    return elapsed, out


def mkdocs_build(root: Path, site: Path, env: dict, config: str = "mkdocs.yml") -> float:
    """Wall seconds of ``mkdocs build --strict`` of ``root`` into ``site``."""
    shutil.rmtree(site, ignore_errors=True)
    return timed([str(VENV_BIN / "mkdocs"), "build", "--strict", "-f", config, "--site-dir", str(site)],
                 root, env)[0]


@dataclass
class _Tagged:
    """A tagged YAML value of mkdocs.yml (``!ENV [OFFLINE, false]``, ``!!python/...``), kept as written."""

    tag: str
    value: object


class _ConfigLoader(yaml.SafeLoader):
    """Reads mkdocs.yml without resolving its tags, so that a child config can write them back unchanged."""


class _ConfigDumper(yaml.SafeDumper):
    """Writes a config read by ``_ConfigLoader``, tags included."""


def _construct_tagged(loader, suffix, node):
    if isinstance(node, yaml.SequenceNode):
        return _Tagged(node.tag, loader.construct_sequence(node, deep=True))
    if isinstance(node, yaml.MappingNode):
        return _Tagged(node.tag, loader.construct_mapping(node, deep=True))
    return _Tagged(node.tag, loader.construct_scalar(node))


def _represent_tagged(dumper, data: _Tagged):
    if isinstance(data.value, list):
        return dumper.represent_sequence(data.tag, data.value)
    if isinstance(data.value, dict):
        return dumper.represent_mapping(data.tag, data.value)
    return dumper.represent_scalar(data.tag, data.value)


for _prefix in ("!", "tag:yaml.org,2002:python/"):
    _ConfigLoader.add_multi_constructor(_prefix, _construct_tagged)
_ConfigDumper.add_representer(_Tagged, _represent_tagged)


def read_config(root: Path) -> dict:
    """``root/mkdocs.yml`` as plain data; tagged values (``!ENV ...``) are kept as ``_Tagged``."""
    return yaml.load((root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)


def write_child_config(root: Path, name: str, overrides: dict) -> str:
    """Write ``root/<name>`` that inherits mkdocs.yml and replaces the top-level keys in ``overrides``.

    MkDocs merges an ``INHERIT`` parent key by key; a list (nav, plugins, hooks) is replaced whole.
    """
    text = yaml.dump({"INHERIT": "mkdocs.yml", **overrides}, Dumper=_ConfigDumper, allow_unicode=True,
                     sort_keys=False)
    (root / name).write_text(text, encoding="utf-8")
    return name


# ---------------------------------------------------------------- 1. builds


def bench_build(tmp: Path, repeat: int) -> tuple[list[Figure], Path]:
    """Cold and warm strict builds from stored outputs. Returns the figures and the last built site."""
    root = copy_repo(tmp / "build-repo")
    env, site = bench_env(tmp), tmp / "build-site"
    cold = []
    for _ in range(repeat):
        shutil.rmtree(root / ".cache", ignore_errors=True)
        cold.append(mkdocs_build(root, site, env))
    warm = [mkdocs_build(root, site, env) for _ in range(repeat)]  # the cold builds warmed the cache
    return [Figure("build, stored outputs (warm cache)", "s", warm, ("<", 10)),
            Figure("build, stored outputs (cold: .cache emptied)", "s", cold)], site


STRIP_HOOK = '''"""Benchmark only: drop stored outputs from the generated notebooks so mkdocs-jupyter executes them."""
import json
from pathlib import Path

from mkdocs.plugins import event_priority


@event_priority(-50)  # after scripts/mkdocs_hooks.py wrote the notebooks (-10)
def on_pre_build(config):
    for nb in Path(config.docs_dir).glob("*/notebooks/**/*.ipynb"):
        data = json.loads(nb.read_text(encoding="utf-8"))
        for cell in data["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        nb.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
'''


_OUTPUT_AREA = re.compile(r'class="[^"]*\bjp-OutputArea-output\b')  # an output in the page (not in its CSS)


def stored_durations(examples_dir: Path = EXAMPLES_DIR) -> dict[str, float]:
    """Stored run time (s, ``provenance.duration_s``) of each example's CPU record, keyed ``chapter/name``."""
    out = {}
    for path in discover_examples(examples_dir):
        rel = path.relative_to(Path(examples_dir).resolve()).as_posix()
        rec = load_record(rel, "cpu", examples_dir)
        if rec is not None:
            out[rel[:-3]] = rec.provenance.duration_s
    return out


def check_kernel() -> None:
    """Raise BenchError naming the missing package if notebooks cannot be executed here."""
    for module in ("ipykernel", "nbclient", "nbconvert"):
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if probe.returncode != 0:
            raise BenchError(f"the executing build needs {module} in .venv; add it to pyproject.toml")


def bench_exec(tmp: Path, repeat: int, cold: Figure, quick: bool) -> list[Figure]:
    """Build the same site with mkdocs-jupyter executing every generated notebook in a Jupyter kernel.

    With ``quick``, only the chapter with the shortest stored run time executes; the full time is
    estimated as measured + (stored run time + kernel start-up per notebook) of the others, the
    kernel start-up being what the measurement shows beyond the stored run times.
    """
    check_kernel()
    root = copy_repo(tmp / "exec-repo")
    env, site = bench_env(tmp), tmp / "exec-site"
    (root / "bench_strip_outputs.py").write_text(STRIP_HOOK, encoding="utf-8")
    cfg = read_config(root)
    durations = stored_durations(root / "examples")
    chapters: dict[str, float] = {}
    for rel, d in durations.items():
        chapters[rel.split("/")[0]] = chapters.get(rel.split("/")[0], 0.0) + d
    chosen = min(chapters, key=chapters.get) if quick else None
    plugins = []
    for entry in cfg["plugins"]:
        if isinstance(entry, dict) and "mkdocs-jupyter" in entry:
            opts = {**entry["mkdocs-jupyter"], "execute": True, "cache": False, "allow_errors": True}
            if chosen:
                opts["execute_ignore"] = [f"*/notebooks/{ch}/*.ipynb" for ch in chapters if ch != chosen]
            entry = {"mkdocs-jupyter": opts}
        plugins.append(entry)
    config = write_child_config(root, "mkdocs.bench-exec.yml",
                                {"plugins": plugins, "hooks": [*cfg["hooks"], "bench_strip_outputs.py"]})
    times = [mkdocs_build(root, site, env, config) for _ in range(repeat)]
    notebooks = list(site.rglob("notebooks/*/*/index.html"))
    executed = sum(1 for p in notebooks if _OUTPUT_AREA.search(p.read_text(encoding="utf-8")))
    n_lang = len(LANGUAGES)
    k = len(notebooks) if chosen is None else sum(1 for rel in durations if rel.startswith(chosen + "/")) * n_lang
    if not notebooks or executed != k:
        raise BenchError(f"executing build: {executed} of {len(notebooks)} notebook pages show outputs, "
                         f"expected {k}: the notebooks did not execute as configured")
    if chosen is None:
        return [Figure("build, executing examples (mkdocs-jupyter execute: true)", "s", times,
                       note=f"fewer runs (slow); {executed} notebooks executed")]
    ran = sum(d for rel, d in durations.items() if rel.startswith(chosen + "/")) * n_lang
    rest = sum(d for rel, d in durations.items() if not rel.startswith(chosen + "/")) * n_lang
    startup = max(0.0, (statistics.median(times) - cold.median - ran) / k)
    estimate = [t + rest + startup * (len(durations) * n_lang - k) for t in times]
    return [Figure(f"build, executing only {chosen}/ ({k} notebooks)", "s", times, note="quick: partial"),
            Figure("build, executing examples (estimate)", "s", estimate,
                   note=f"quick: est. from {k} of {len(durations) * n_lang} notebooks, {startup:.1f} s start-up each")]


# ---------------------------------------------------------------- 2. incremental capture


def store_mtimes(examples_dir: Path) -> dict[str, int]:
    """mtime (ns) of every store file, keyed by path relative to the store."""
    store = examples_dir / "_outputs"
    return {p.relative_to(store).as_posix(): p.stat().st_mtime_ns for p in store.rglob("*.json")}


_RAN = re.compile(r"^\[\d+/\d+\] ", re.MULTILINE)


def bench_incremental(tmp: Path, repeat: int) -> list[Figure]:
    """``capture.py`` with nothing stale, then with one example changed (a newline appended)."""
    root = copy_repo(tmp / "incr-repo")
    env, cmd = bench_env(tmp), [sys.executable, "scripts/capture.py"]
    timed(cmd, root, env)  # untimed: brings the copy up to date if the working tree has stale examples
    noop, noop_runs = [], []
    for _ in range(repeat):
        before = store_mtimes(root / "examples")
        seconds, out = timed(cmd, root, env)
        changed = [k for k, v in store_mtimes(root / "examples").items() if before.get(k) != v]
        noop.append(seconds)
        noop_runs.append(max(len(_RAN.findall(out)), len(changed)))
    durations = stored_durations(root / "examples")
    target = min(durations, key=durations.get)
    one, one_runs = [], []
    for _ in range(repeat):
        with open(root / "examples" / f"{target}.py", "a", encoding="utf-8") as fh:
            fh.write("\n")  # a new hash, the same cells: the example is stale
        before = store_mtimes(root / "examples")
        seconds, out = timed(cmd, root, env)
        changed = [k for k, v in store_mtimes(root / "examples").items() if before.get(k) != v]
        one.append(seconds)
        one_runs.append(max(len(_RAN.findall(out)), len(changed)))
    return [Figure("capture, nothing changed", "s", noop, ("<", 2)),
            Figure("capture, nothing changed: examples run", "", noop_runs, ("==", 0), "and store files changed"),
            Figure("capture, one example changed", "s", one, note=f"{target}.py (shortest stored run)"),
            Figure("capture, one example changed: examples run", "", one_runs, ("==", 1))]


# ---------------------------------------------------------------- 3. capture overhead


def overhead_subset(count: int, examples_dir: Path = EXAMPLES_DIR) -> list[str]:
    """``count`` examples (0: all) without a declared raising cell, spread evenly over stored run times."""
    durations = stored_durations(examples_dir)
    plain = []
    for path in discover_examples(examples_dir):
        ex = parse_example(path, examples_dir)
        if not ex.needs_cuda and not any(c.raises for c in ex.cells):
            plain.append((durations.get(ex.rel[:-3], 0.0), ex.rel))
    plain.sort()
    if count == 1:
        plain = [plain[len(plain) // 2]]
    elif 1 < count < len(plain):
        plain = [plain[round(i * (len(plain) - 1) / (count - 1))] for i in range(count)]
    return [rel for _, rel in plain]


def bench_capture(tmp: Path, repeat: int, count: int) -> list[Figure]:
    """Capture with ``-j 1`` and ``-j 2`` against the sum of bare runs of the same examples."""
    root = copy_repo(tmp / "capture-repo")
    env = bench_env(tmp)
    subset = overhead_subset(count, root / "examples")
    paths = [f"examples/{rel}" for rel in subset]
    bare_env = {**env, **CHILD_ENV}
    bare, j1, j2 = [], [], []
    for _ in range(repeat):
        bare.append(sum(timed([sys.executable, p], root, bare_env)[0] for p in paths))
        j1.append(timed([sys.executable, "scripts/capture.py", "--force", "-j", "1", *paths], root, env)[0])
        j2.append(timed([sys.executable, "scripts/capture.py", "--force", "-j", "2", *paths], root, env)[0])
    what = f"{len(subset)} examples" + (" (all without a raising cell)" if count == 0 else ", a subset")
    f_bare = Figure("bare `python example.py`, summed", "s", bare, note=what)
    f_j1 = Figure("capture --force -j 1", "s", j1, note=what)
    f_j2 = Figure("capture --force -j 2", "s", j2, note=what)
    return [f_bare, f_j1, f_j2, ratio("capture overhead (-j 1 / bare)", f_j1, f_bare, ("<=", 1.2)),
            ratio("parallel speed-up (-j 1 / -j 2)", f_j1, f_j2)]


# ---------------------------------------------------------------- 4. scaling


def flatten_nav(nav) -> list[str]:
    """The page paths of a MkDocs nav, in order."""
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") else []
    if isinstance(nav, dict):
        return [p for v in nav.values() for p in flatten_nav(v)]
    if isinstance(nav, list):
        return [p for item in nav for p in flatten_nav(item)]
    return []


def replicate(root: Path, factor: int, nav: list) -> list:
    """Copy the content of the tree ``root`` ``factor - 1`` times under new chapter names.

    Copy ``i`` (2..factor) adds ``examples/<ch>-r<i>/`` (same scripts), their stored outputs (with
    ``example`` renamed, so figure paths do not collide) and, in every language, ``<page>-r<i>.md``
    for each page of ``nav`` with its embeds pointing at the copies.

    Args:
        root: a repository copy with ``examples/`` and ``docs/<lang>/``.
        factor: total copies of the content, >= 1.
        nav: the original nav (``mkdocs.yml``).

    Returns:
        The nav extended with one section per copy, ``{"Replica <i>": [pages]}``.
    """
    examples, docs = root / "examples", root / "docs"
    chapters = sorted(d.name for d in examples.iterdir() if d.is_dir() and not d.name.startswith(("_", ".")))
    pages = flatten_nav(nav)
    new_nav = list(nav)
    for i in range(2, factor + 1):
        suffix = f"-r{i}"
        for ch in chapters:
            shutil.copytree(examples / ch, examples / f"{ch}{suffix}")
            for src in sorted((examples / "_outputs" / ch).glob("*/*.json")):
                rec = json.loads(src.read_text(encoding="utf-8"))
                rec["example"] = f"{ch}{suffix}/{rec['example'].split('/', 1)[1]}"
                dst = examples / "_outputs" / f"{ch}{suffix}" / src.parent.name / src.name
                dst.parent.mkdir(parents=True, exist_ok=True)
                dst.write_text(json.dumps(rec, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        for lang in LANGUAGES:
            for rel, path in language_pages(lang, docs).items():
                if rel in pages:
                    text = _EMBED_SUB.sub(lambda m, s=suffix: f"{m.group(1)}{m.group(2)}{s}/",
                                          path.read_text(encoding="utf-8"))
                    path.with_name(f"{path.stem}{suffix}.md").write_text(text, encoding="utf-8")
        new_nav.append({f"Replica {i}": [f"{p[:-3]}{suffix}.md" for p in pages]})
    return new_nav


def count_pages(site: Path) -> int:
    """Pages MkDocs rendered into a built site (404 page left out)."""
    return sum(1 for p in site.rglob("*.html")
               if p.name != "404.html" and _GENERATOR.search(p.read_text(encoding="utf-8")))


def bench_scaling(tmp: Path, repeat: int, factors: list[int]) -> list[Figure]:
    """Warm build time (after one warm-up build) per content factor, and per page."""
    figures, per_page = [], {}
    env = bench_env(tmp)
    for factor in factors:
        root = copy_repo(tmp / f"scale-{factor}", cache=True)
        config = write_child_config(root, "mkdocs.bench-scale.yml",
                                    {"nav": replicate(root, factor, read_config(root)["nav"])})
        site = tmp / f"scale-{factor}-site"
        mkdocs_build(root, site, env, config)  # warm-up: fills the cache for the copies
        times = [mkdocs_build(root, site, env, config) for _ in range(repeat)]
        pages = count_pages(site)
        figures.append(Figure(f"build, content x{factor}", "s", times, note=f"{pages} pages"))
        per_page[factor] = Figure(f"build time per page, content x{factor}", "ms", [t * 1000 / pages for t in times])
        figures.append(per_page[factor])
        shutil.rmtree(root)
        shutil.rmtree(site)
    low, high = min(factors), max(factors)
    if high > low:
        figures.append(ratio(f"per-page time growth, x{high} / x{low}", per_page[high], per_page[low], ("<=", 1.1),
                             "1.0 = linear; 10 % allowed for noise"))
    return figures


# ---------------------------------------------------------------- 5. page weight


class _AssetRefs(HTMLParser):
    """Collects the URLs a page makes a browser fetch: stylesheets, icons, scripts, images, media."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        rel = (a.get("rel") or "").lower().split()
        if tag == "link" and {"stylesheet", "icon", "preload", "modulepreload"} & set(rel):
            self.urls.append(a.get("href") or "")
        elif tag in ("script", "img", "source", "embed", "audio", "video", "track", "iframe") and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "object" and a.get("data"):
            self.urls.append(a["data"])
        if tag == "video" and a.get("poster"):
            self.urls.append(a["poster"])


_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")


def _resolve(site: Path, base: Path, url: str) -> Path | None:
    """Local file that ``url`` (found in ``base``, a file of the site) points to; None if external or data."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    path = unquote(parts.path)
    target = site / path.lstrip("/") if path.startswith("/") else base.parent / path
    return target / "index.html" if target.is_dir() else target


@dataclass
class PageWeight:
    """Bytes a browser without cache fetches for one page: the html, then every asset it references."""

    page: str
    bytes: int
    gzip_bytes: int
    assets: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)


_GENERATOR = re.compile(r'<meta\s+name="generator"\s+content="mkdocs')


def page_weights(site: Path) -> list[PageWeight]:
    """Weight of each page of the built site ``site`` (404 page left out).

    Pages are the HTML files MkDocs rendered (they carry its ``generator`` meta tag); HTML files
    copied from docs/ as they are, such as template overrides, are not pages.

    Counts the html, the stylesheets, scripts, icons and images it references, and files that those
    stylesheets reference through ``url()``. Each asset counts once per page. The search index is not
    counted (the search worker fetches it, not the page). Sizes are bytes on disk (uncompressed) and
    zlib level 6 sizes (close to gzip over the wire).
    """
    site = Path(site).resolve()
    sizes: dict[Path, tuple[int, int]] = {}

    def size(p: Path) -> tuple[int, int]:
        if p not in sizes:
            data = p.read_bytes()
            sizes[p] = (len(data), len(zlib.compress(data, 6)))
        return sizes[p]

    weights = []
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        if page.name == "404.html" or not _GENERATOR.search(html):
            continue
        parser = _AssetRefs()
        parser.feed(html)
        total, gz = size(page)
        w = PageWeight(page.relative_to(site).as_posix(), total, gz)
        queue, seen = [(page, u) for u in parser.urls], set()
        while queue:
            base, url = queue.pop(0)
            target = _resolve(site, base, url)
            if target is None:
                if urlsplit(url).scheme not in ("data", ""):
                    w.external.append(url)
                continue
            target = target.resolve()
            if target in seen:
                continue
            seen.add(target)
            if not target.is_file():
                w.missing.append(url)
                continue
            b, g = size(target)
            w.bytes, w.gzip_bytes = w.bytes + b, w.gzip_bytes + g
            w.assets.append(target.relative_to(site).as_posix() if site in target.parents else str(target))
            if target.suffix == ".css":
                queue.extend((target, u) for u in _CSS_URL.findall(target.read_text(encoding="utf-8")))
        weights.append(w)
    return weights


def search_index_sizes(site: Path) -> dict[str, int]:
    """Bytes of each language's search index (``search/`` for the default language, ``<lang>/search/``)."""
    out = {}
    for i, lang in enumerate(LANGUAGES):
        p = Path(site) / ("" if i == 0 else lang) / "search" / "search_index.json"
        out[lang] = p.stat().st_size if p.is_file() else 0
    return out


def bench_weight(site: Path) -> list[Figure]:
    """Page weight figures of a built site (one measurement: the files do not change between runs)."""
    weights = page_weights(site)
    if not weights:
        raise BenchError(f"{site}: no HTML pages to weigh")
    biggest = max(weights, key=lambda w: w.bytes)
    missing = sorted({m for w in weights for m in w.missing})
    external = sorted({e for w in weights for e in w.external})
    notebooks = [w.bytes for w in weights if "/notebooks/" in f"/{w.page}"]
    written = [w.bytes for w in weights if "/notebooks/" not in f"/{w.page}"]
    # "Transferred" is what crosses the network: static hosts (GitHub Pages, nginx/Caddy with the
    # snippets in docs/*/deploy.md) send HTML, CSS and JS gzip-compressed, so the target applies to
    # the gzip size; the uncompressed size is reported beside it.
    biggest_gz = max(weights, key=lambda w: w.gzip_bytes)
    figures = [Figure("page weight, median page (transferred, gzip)", "KB",
                      [statistics.median(w.gzip_bytes for w in weights) / 1000], ("<", 300),
                      f"{len(weights)} pages; zlib level 6"),
               Figure("page weight, largest page (transferred, gzip)", "KB", [biggest_gz.gzip_bytes / 1000],
                      note=biggest_gz.page),
               Figure("page weight, median page (uncompressed)", "KB",
                      [statistics.median(w.bytes for w in weights) / 1000], note="as stored on disk"),
               Figure("page weight, largest page (uncompressed)", "KB", [biggest.bytes / 1000], note=biggest.page)]
    figures += [Figure(f"page weight, median {kind} page", "KB", [statistics.median(sizes) / 1000],
                       note=f"{len(sizes)} pages")
                for kind, sizes in (("chapter", written), ("notebook", notebooks)) if sizes]
    figures += [Figure("referenced assets missing or external", "", [len(missing) + len(external)], ("==", 0),
                       ", ".join((missing + external)[:3]))]
    figures += [Figure(f"search index, {lang}", "KB", [b / 1000]) for lang, b in search_index_sizes(site).items()]
    return figures


# ---------------------------------------------------------------- 6. tests


def bench_tests(tmp: Path, repeat: int, test_args: str = "") -> list[Figure]:
    """Wall time of ``make test`` (``ARGS=test_args``) in a copy with ``.git`` and a warm ``.cache``."""
    root = copy_repo(tmp / "test-repo", cache=True, git=True)
    # A clean make environment: `make bench ARGS=...` would otherwise hand its ARGS to the inner make.
    env = {k: v for k, v in bench_env(tmp).items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    cmd = ["make", "-o", ".venv/.installed-stamp", "test", f"ARGS={test_args}"]  # after set-up: no reinstall
    times = [timed(cmd, root, env, timeout=1800)[0] for _ in range(repeat)]
    return [Figure("make test" + (f" ARGS='{test_args}'" if test_args else ""), "s", times, ("<", 300))]


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(prog="make bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, help="runs per figure (default 3; 1 with --quick)")
    ap.add_argument("--exec-repeat", type=int, default=1, help="runs of the slow executing build (default 1)")
    ap.add_argument("--quick", action="store_true",
                    help="for development: 1 run, partial executing build, 3-example capture subset, scaling x1 x2")
    ap.add_argument("--skip-tests", action="store_true", help="do not time `make test`")
    ap.add_argument("--test-args", default="", help="ARGS for the timed `make test` (default: none, the full suite)")
    ap.add_argument("--only", help=f"comma-separated sections: {','.join(SECTIONS)}")
    ap.add_argument("--scale", help="content factors for the scaling section (default 1,4,16; --quick 1,2)")
    ap.add_argument("--capture-examples", type=int,
                    help="examples in the capture-overhead subset, 0 = all (default 8; --quick 3)")
    args = ap.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    factors = [int(x) for x in (args.scale or ("1,2" if args.quick else "1,4,16")).split(",")]
    count = args.capture_examples if args.capture_examples is not None else (3 if args.quick else 8)
    sections = args.only.split(",") if args.only else list(SECTIONS)
    unknown = set(sections) - set(SECTIONS)
    if unknown or repeat < 1 or args.exec_repeat < 1:
        ap.error(f"unknown section(s) {sorted(unknown)}" if unknown else "repeats must be >= 1")
    if args.skip_tests and "tests" in sections:
        sections.remove("tests")
    if ("exec" in sections or "weight" in sections) and "build" not in sections:
        sections.insert(0, "build")  # the executing estimate and the weights need the build

    started, load_start = datetime.now(), list(os.getloadavg())
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory(prefix="pytorch-notes-bench-") as tmpdir:
        tmp = Path(tmpdir)
        steps = {
            "incremental": lambda: bench_incremental(tmp, repeat),
            "capture": lambda: bench_capture(tmp, repeat, count),
            "scaling": lambda: bench_scaling(tmp, repeat, factors),
            "tests": lambda: bench_tests(tmp, repeat, args.test_args),
        }
        built, errors = None, []
        for section in [s for s in SECTIONS if s in sections]:
            print(f"bench: {section} ...", file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            if section in ("exec", "weight") and built is None:
                errors.append(f"{section}: skipped, it needs the build section, which failed")
                continue
            try:
                if section == "build":
                    found, built = bench_build(tmp, repeat)
                elif section == "exec":
                    found = bench_exec(tmp, args.exec_repeat, found_by_name(figures, "cold"), args.quick)
                    found.append(ratio("speed-up, stored outputs vs executing", found[-1],
                                       found_by_name(figures, "warm"), (">=", 20)))
                elif section == "weight":
                    found = bench_weight(built)
                else:
                    found = steps[section]()
            except (BenchError, subprocess.TimeoutExpired) as exc:
                errors.append(f"{section}: {exc}")
                print(f"bench: {section} FAILED: {exc}", file=sys.stderr, flush=True)
                continue
            figures.extend(found)
            print(f"bench: {section} done in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)

    load = os.getloadavg()
    kind = "QUICK run (for development, not for the record)" if args.quick else "full run"
    print(f"bench: {kind}, {repeat} run(s) per figure, {os.cpu_count()} CPUs, "
          f"load average now {load[0]:.1f} (1 min) / {load[2]:.1f} (15 min)")
    table = format_table(figures)
    print(table)
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    command = "make bench" + (f" ARGS={shlex.quote(shlex.join(argv))}" if argv else "")
    report = {"date": started.isoformat(timespec="seconds"), "command": command, "repeat": repeat, "quick": args.quick,
              "machine": {"platform": platform.platform(terse=True), "python": platform.python_version(),
                          "cpus": os.cpu_count(), "load_avg_at_start": load_start, "load_avg_at_end": list(load)},
              "figures": [f.as_dict() for f in figures], "table": table, "errors": errors}
    text = json.dumps(report, ensure_ascii=False, indent=1) + "\n"
    dated = OUT_DIR / f"bench-{started.strftime('%Y-%m-%d-%H%M%S')}.json"
    dated.write_text(text, encoding="utf-8")
    (OUT_DIR / "latest.json").write_text(text, encoding="utf-8")
    missed = [f.name for f in figures if f.met is False]
    print(f"bench: {len(missed)} target(s) missed" + (f": {'; '.join(missed)}" if missed else ""))
    print(f"bench: figures written to {dated.relative_to(REPO_ROOT)} and artifacts/bench/latest.json")
    for line in errors:
        print(f"bench: {line}", file=sys.stderr)
    return 1 if errors else 0


def found_by_name(figures: list[Figure], word: str) -> Figure:
    """The first build figure whose name contains ``word`` (``"warm"`` or ``"cold"``)."""
    return next(f for f in figures if f.name.startswith("build, stored") and word in f.name)


if __name__ == "__main__":
    sys.exit(main())
