"""pre-commit runs ruff and the Chinese typesetting check, from the project's .venv (no downloads)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A scratch git repo wired like this one: same hook config, same .venv and scripts."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copy(ROOT / ".pre-commit-config.yaml", tmp_path)
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    (tmp_path / "scripts").symlink_to(ROOT / "scripts")
    (tmp_path / "docs" / "zh").mkdir(parents=True)
    return tmp_path


def _run(repo: Path, *files: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRE_COMMIT_HOME": str(repo / ".pre-commit-cache")}
    return subprocess.run([str(PRE_COMMIT), "run", "--files", *files], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)


def test_config_is_valid():
    proc = subprocess.run([str(PRE_COMMIT), "validate-config", str(ROOT / ".pre-commit-config.yaml")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_hooks_catch_bad_typesetting_and_lint(repo):
    (repo / "docs/zh/page.md").write_text("# 页\n\n使用PyTorch的张量,很方便.\n", encoding="utf-8")
    (repo / "bad.py").write_text("import os\n", encoding="utf-8")
    proc = _run(repo, "docs/zh/page.md", "bad.py")
    assert proc.returncode == 1
    assert "docs/zh/page.md:3:" in proc.stdout and "F401" in proc.stdout, proc.stdout


def test_hooks_pass_on_good_files(repo):
    (repo / "docs/zh/page.md").write_text("# 页\n\n使用 PyTorch 的张量，很方便。\n", encoding="utf-8")
    (repo / "good.py").write_text("print(1)\n", encoding="utf-8")
    proc = _run(repo, "docs/zh/page.md", "good.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
