"""Shared fixtures: a throw-away examples tree for unit tests of the pipeline stages."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")


def pytest_addoption(parser):
    parser.addoption("--run-examples", choices=("changed", "all"), default="changed",
                     help="changed (default): run the embedded examples whose stored record does not prove they "
                          "run here (pytorch_notes.store.proof); all: run every one")


@pytest.fixture
def examples_dir(tmp_path: Path) -> Path:
    """An empty ``examples/`` folder; write files into ``<it>/<chapter>/<name>.py``."""
    d = tmp_path / "examples"
    d.mkdir()
    return d


@pytest.fixture
def write_example(examples_dir: Path):
    """Write an example (dedented) and return its path."""

    def write(rel: str, source: str) -> Path:
        path = examples_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The real site, built once per pytest worker with ``mkdocs build --strict`` into a temp folder.

    Tests that use it must be in ``xdist_group("site")`` so that one worker builds it once (~15 s).
    """
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"
    return out
