"""Shared fixtures: a throw-away examples tree for unit tests of the pipeline stages."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")


def _build_site(out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([str(MKDOCS), "build", "--strict", "--site-dir", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"


def pytest_configure(config):
    """``make test`` (the whole suite): build the site once, before the workers start.

    The ``site`` fixture then reuses it, and the other builds of the suite (a copy of the course with GPU
    records, the offline copy, the served copy) find mkdocs-jupyter's cache filled instead of each
    rendering every notebook at the same time on the other worker (a fresh clone has no cache). A run of
    chosen tests (``make test ARGS=tests/test_store.py``) builds only if a test asks for the site.
    """
    if hasattr(config, "workerinput") or os.environ.get("PYTORCH_NOTES_TEST_SITE"):
        return  # an xdist worker, or a site built by the controller already
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS or config.getoption("collectonly"):
        return
    out = Path(tempfile.mkdtemp(prefix="pytorch-notes-site-"))
    print(f"building the site once for the whole suite into {out} ...", flush=True)
    _build_site(out)
    os.environ["PYTORCH_NOTES_TEST_SITE"] = str(out)  # the workers inherit it
    config.add_cleanup(lambda: shutil.rmtree(out, ignore_errors=True))


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
    """The real site, built with ``mkdocs build --strict``: once for the whole suite by ``pytest_configure``,
    else once per pytest worker into a temp folder.

    Tests that use it are in ``xdist_group("site")`` (they also share one browser).
    """
    if prebuilt := os.environ.get("PYTORCH_NOTES_TEST_SITE"):
        return Path(prebuilt)
    out = tmp_path_factory.mktemp("site")
    _build_site(out)
    return out
