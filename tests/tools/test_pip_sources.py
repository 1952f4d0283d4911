"""scripts/pip_sources.py: uv gets the package sources pip is configured with."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess

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
