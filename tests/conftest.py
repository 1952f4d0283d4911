"""Shared fixtures: a throw-away examples tree for unit tests of the pipeline stages."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest


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
