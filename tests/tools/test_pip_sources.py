"""scripts/pip_sources.py: uv gets the package sources pip is configured with; the Makefile's install tries
uv's cache first (--offline), then those sources."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess

import pytest
from conftest import ROOT

spec = importlib.util.spec_from_file_location("pip_sources", ROOT / "scripts" / "pip_sources.py")
pip_sources = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pip_sources)

CONFIG = """\
:env:.cert='/etc/ssl/certs/ca-certificates.crt'
:env:.find-links='/opt/wheels'
global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'
global.find-links='/opt/wheels'
"""


def test_pip_configuration_becomes_uv_options_with_pips_choice_among_sources():
    pairs = pip_sources.parse_config_list(CONFIG)
    assert pairs == [("find-links", "/opt/wheels"), ("extra-index-url", "file:///opt/pypi/simple"),
                     ("extra-index-url", "file:///opt/pypi-more/simple")]
    assert pip_sources.uv_options(pairs) == [
        "--index-strategy", "unsafe-best-match", "--find-links", "/opt/wheels",
        "--extra-index-url", "file:///opt/pypi/simple", "--extra-index-url", "file:///opt/pypi-more/simple"]


def test_no_pip_configuration_leaves_uv_on_its_defaults():
    assert pip_sources.uv_options(pip_sources.parse_config_list("global.cert='/x'\n")) == []
    assert pip_sources.uv_options([("index-url", "a"), ("index-url", "b")]) == [
        "--index-strategy", "unsafe-best-match", "--index-url", "b"]


def test_a_virtualenv_without_pip_gets_the_sources_of_python3s_pip(tmp_path):
    """The Makefile's virtualenv has no pip: the script asks python3's (on a machine with no pip
    configuration both print nothing)."""

    python3 = shutil.which("python3")
    subprocess.run([python3, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    script = str(ROOT / "scripts" / "pip_sources.py")
    bare = subprocess.run([str(tmp_path / "venv" / "bin" / "python"), script], capture_output=True, text=True,
                          check=True).stdout
    system = subprocess.run([python3, script], capture_output=True, text=True, check=True).stdout
    assert bare == system


FAKE_UV = """#!/bin/sh
echo "$*" >> "$(dirname "$0")/uv-calls"
case " $* " in *" --offline "*) exit "${FAKE_UV_OFFLINE_RC:-0}";; esac
"""


@pytest.mark.parametrize("offline_rc", [0, 2])
def test_the_install_tries_uvs_cache_first_then_the_package_sources(tmp_path, offline_rc):
    """Online, uv revalidated its stale cache entries and rebuilt jieba's sdist in every fresh clone: the
    Makefile installs --offline first, and only when that fails (a package not cached) from the sources.
    A stand-in uv records its calls (the virtualenv is real: the recipe writes its .pth file into it)."""
    venv = tmp_path / "venv"
    subprocess.run([shutil.which("python3"), "-m", "venv", "--without-pip", str(venv)], check=True)
    (venv / "bin" / "uv").write_text(FAKE_UV, encoding="utf-8")
    (venv / "bin" / "uv").chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS"))}
    proc = subprocess.run(["make", "-s", f"VENV={venv}", f"{venv}/.installed-stamp"], cwd=ROOT, text=True,
                          capture_output=True, env={**env, "FAKE_UV_OFFLINE_RC": str(offline_rc)})
    assert proc.returncode == 0, proc.stderr
    calls = (venv / "bin" / "uv-calls").read_text(encoding="utf-8").splitlines()
    assert "--offline" in calls[0].split() and "-e .[dev]" in calls[0]
    if offline_rc == 0:
        assert len(calls) == 1 and "cache lacks" not in proc.stdout
    else:
        assert len(calls) == 2 and "--offline" not in calls[1].split() and "-e .[dev]" in calls[1]
        assert "uv's cache lacks a package" in proc.stdout
    assert (venv / ".installed-stamp").exists()

