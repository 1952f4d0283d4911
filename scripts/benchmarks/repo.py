"""Temporary copies of the repository, the environment of measured commands, timed commands and builds,
child MkDocs configs, and the stored run times of the examples."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import yaml  # PyYAML comes with MkDocs
from pytorch_notes.parse import discover_examples
from pytorch_notes.settings import EXAMPLES_DIR, REPO_ROOT
from pytorch_notes.store.records import load_record

VENV_BIN = Path(sys.executable).parent
IGNORED_TOP = {".venv", "site", "site-offline", ".cache", "artifacts", ".pytest_cache", ".ruff_cache"}


class BenchError(RuntimeError):
    """A measured command failed or did not do what it must (the message says which and why)."""


class PartialResults(BenchError):
    """Part of a section failed (the message says which and why); ``figures`` holds what the rest measured."""

    def __init__(self, message: str, figures: list):
        super().__init__(message)
        self.figures = figures


# ---------------------------------------------------------------- temporary copies and commands


def copy_repo(dst: Path, src: Path = REPO_ROOT, *, cache: bool = False, git: bool = False) -> Path:
    """Copy the working tree (tracked and untracked, not ignored files) of ``src`` to ``dst``.

    Generated folders (site, .cache, artifacts) are left out; ``.cache`` is copied
    when ``cache`` and ``.git`` when ``git``. ``.venv`` becomes a link to the one running this script.
    """
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=src, check=True,
                                capture_output=True).stdout.decode().split("\0")
        files = [Path(p) for p in listed if p and (src / p).is_file()]
    except (OSError, subprocess.CalledProcessError):
        files = [p.relative_to(src) for p in src.rglob("*") if p.is_file()
                 and not ({p.relative_to(src).parts[0]} & (IGNORED_TOP | {".git"}))
                 and "__pycache__" not in p.parts]
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
    """Environment of measured commands: no MkDocs 2 banner, Jupyter state kept under ``tmp``, and the
    pipeline package of the copy a command runs in (``PYTHONPATH=scripts``, relative to its working
    directory; the editable install points at the original checkout).

    Bytecode: under ``make`` (``PYTHONPYCACHEPREFIX`` set) the commands read and write the virtualenv's
    compiled modules as ``make build`` does; forbidding the writes made every measured build compile
    MkDocs, Material and nbconvert from source again (a warm build 3.7 s -> 6.9 s in a fresh clone, whose
    virtualenv is compiled lazily). Without a prefix, nothing is written (no ``__pycache__`` in the copies).
    """
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": "scripts",
           "JUPYTER_RUNTIME_DIR": str(tmp / "jupyter-runtime"), "IPYTHONDIR": str(tmp / "ipython")}
    if env.get("PYTHONPYCACHEPREFIX"):
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def timed(cmd: list[str], cwd: Path, env: dict, timeout: float = 3600) -> tuple[float, str]:
    """Run ``cmd`` and return (wall seconds, stdout+stderr). Raises BenchError if it fails."""
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    elapsed = time.perf_counter() - t0
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        raise BenchError(f"`{' '.join(map(str, cmd))}` (in {cwd}) exited {proc.returncode}:\n{out[-4000:]}")
    return elapsed, out


def mkdocs_build(root: Path, site: Path, env: dict, config: str = "mkdocs.yml", *, over: bool = False,
                 sandbox: Path | None = None) -> float:
    """Wall seconds of ``mkdocs build --strict`` of ``root`` into ``site``: an empty folder, or with
    ``over`` the site of the last build, as ``make build`` finds ``site/`` (``pytorch_notes/site/sitedir.py``).
    With ``sandbox`` (an empty scratch folder), a build that executes the examples: it runs in the capture's
    sandbox (``execute.script.tool_command``; SandboxError where bubblewrap cannot start), ``root`` and
    ``site`` writable, with the examples' environment and this one's MkDocs and Python path variables."""
    if not over:
        shutil.rmtree(site, ignore_errors=True)
    cmd = [str(VENV_BIN / "mkdocs"), "build", "--strict", "-f", config, "--site-dir", str(site)]
    if sandbox is not None:
        from pytorch_notes.execute.sandbox import SandboxError  # noqa: PLC0415 - only the executing build
        from pytorch_notes.execute.script import tool_command  # noqa: PLC0415

        site.mkdir(parents=True, exist_ok=True)
        extra = {k: env[k] for k in ("NO_MKDOCS_2_WARNING", "PYTHONPATH") if k in env}
        extra |= {"JUPYTER_RUNTIME_DIR": str(sandbox / "tmp" / "jupyter"), "IPYTHONDIR": str(sandbox / "tmp" / "ipy")}
        try:
            cmd, env = tool_command(cmd, root, sandbox, (site,), extra)
        except SandboxError as exc:
            raise BenchError(f"a build that executes the examples runs in the capture's sandbox only: {exc}") from None
    return timed(cmd, root, env)[0]


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


# ---------------------------------------------------------------- stored run times


def stored_durations(examples_dir: Path = EXAMPLES_DIR) -> dict[str, float]:
    """Stored run time (s, ``provenance.duration_s``) of each example's CPU record, keyed ``chapter/name``."""
    out = {}
    for path in discover_examples(examples_dir):
        rel = path.relative_to(Path(examples_dir).resolve()).as_posix()
        rec = load_record(rel, "cpu", examples_dir)
        if rec is not None:
            out[rel[:-3]] = rec.provenance.duration_s
    return out
