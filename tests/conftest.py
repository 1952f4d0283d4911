"""Shared fixtures: a throw-away examples tree for unit tests of the pipeline stages."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = Path(sys.executable).with_name("mkdocs")


def bytecode_env() -> dict[str, str]:
    """Where this run keeps bytecode (the Makefile's ``PYTHONPYCACHEPREFIX``, or ``PYTHONDONTWRITEBYTECODE``),
    for a subprocess given a minimal environment: without it, Python writes ``__pycache__`` into the checkout."""
    return {k: os.environ[k] for k in ("PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE") if k in os.environ}


def checkout(**folders):
    """This checkout's folders as a build of its mkdocs.yml takes them (``site.project.Project``), with
    ``folders`` (e.g. ``examples_dir=``) in their place."""
    from pytorch_notes.site.project import Project

    config = SimpleNamespace(config_file_path=str(ROOT / "mkdocs.yml"), docs_dir=str(ROOT / "docs"))
    return dataclasses.replace(Project.from_config(config), **folders)


def opened_plugin(**folders):
    """The site's plugin as ``on_config`` opens it on ``checkout(**folders)``: for a test of one event."""
    from pytorch_notes.site.plugin import PyTorchNotesPlugin

    plugin = PyTorchNotesPlugin()
    plugin.open_project(checkout(**folders))
    return plugin


def _build_command(out: Path) -> list[str]:
    return [str(MKDOCS), "build", "--strict", "--site-dir", str(out)]


def _build_site(out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(_build_command(out), cwd=ROOT, env=env, capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, f"mkdocs build --strict failed:\n{proc.stdout}\n{proc.stderr}"


def pytest_configure(config):
    """``make test`` (the whole suite): start building the site once, as the workers start.

    The build runs in the background while the tests that need no site start; the ``site`` fixture waits
    for it (``prebuilt_site``). The suite's other builds (a copy of the course with GPU records, the
    offline copy, the served copy) ask for ``site`` first, so they find mkdocs-jupyter's cache filled
    instead of each rendering every notebook at the same time (a fresh clone has no cache). A run of
    chosen tests (``make test ARGS=tests/store/test_store.py``) builds only if a test asks for the site.
    """
    if hasattr(config, "workerinput") or os.environ.get("PYTORCH_NOTES_TEST_SITE"):
        return  # an xdist worker, or a site built by the controller already
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS or config.getoption("collectonly"):
        return
    out = Path(tempfile.mkdtemp(prefix="pytorch-notes-site-"))
    log = out.with_name(out.name + ".log")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    status = out.with_name(out.name + ".status")  # the build's exit status, written when it ends
    record = "import subprocess, sys; r = subprocess.call(sys.argv[2:]); open(sys.argv[1], 'w').write(str(r))"
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.Popen([sys.executable, "-c", record, str(status), *_build_command(out)], cwd=ROOT,
                                env=env, stdout=fh, stderr=subprocess.STDOUT)
    os.environ["PYTORCH_NOTES_TEST_SITE"] = str(out)  # the workers inherit it

    def finish() -> None:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        shutil.rmtree(out, ignore_errors=True)
        log.unlink(missing_ok=True)
        status.unlink(missing_ok=True)

    config.add_cleanup(finish)


def prebuilt_site(timeout: float = 600) -> Path | None:
    """The site the controller is building (``pytest_configure``), once its build has ended; None when
    there is none. Fails the test with the build's log when the build failed."""
    if not (where := os.environ.get("PYTORCH_NOTES_TEST_SITE")):
        return None
    out = Path(where)
    log, status = out.with_name(out.name + ".log"), out.with_name(out.name + ".status")
    deadline = time.monotonic() + timeout
    while not status.exists() or not status.read_text(encoding="ascii").strip():
        if time.monotonic() > deadline:
            pytest.fail(f"the site build into {out} did not end within {timeout:.0f} s")
        time.sleep(0.2)
    if status.read_text(encoding="ascii").strip() != "0":
        pytest.fail("mkdocs build --strict failed:\n" + log.read_text(encoding="utf-8")[-5000:])
    return out


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


@pytest.fixture
def docs(tmp_path: Path):
    """A docs/ tree; ``write("zh/x.md", text)`` adds a page (dedented) and returns its path; ``write.root``
    is the tree (the page tests of parse and site)."""
    root = tmp_path / "docs"

    def write(rel: str, text: str) -> Path:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return p

    write.root = root
    return write


OUTSIDE_SECRET = "SECRET-1b7e3c"  # in the ``outside`` fixture's file: it must appear in no output


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside examples/, with a file that is a valid example and would leave a trace (``ran.txt``)
    if run and prints ``OUTSIDE_SECRET``, which must appear in no output (the path tests of parse, store,
    commands and site)."""
    d = tmp_path / "outside"
    d.mkdir()
    trace = d / "ran.txt"
    (d / "secret.py").write_text(f'# %%\nprint("{OUTSIDE_SECRET}")\nopen({str(trace)!r}, "w").write("ran")\n',
                                 encoding="utf-8")
    return d


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The real site, built with ``mkdocs build --strict``: once for the whole suite by ``pytest_configure``,
    else once per pytest worker into a temp folder.

    Tests that use it are in ``xdist_group("site")`` (they also share one browser).
    """
    if (prebuilt := prebuilt_site()) is not None:
        return prebuilt
    out = tmp_path_factory.mktemp("site")
    _build_site(out)
    return out


@pytest.fixture(params=["bwrap", "supervised"])
def isolation(request) -> str:
    """Each isolation a capture can run with (``execute/sandbox.py``). ``bwrap`` is skipped where bubblewrap
    cannot start (a container without user namespaces), unless ``PYTORCH_NOTES_REQUIRE_SANDBOX`` is set
    (``.ci/run``): there a sandbox that silently stopped working must fail the suite."""
    if request.param == "bwrap":
        require_bwrap()
    return request.param


def require_bwrap() -> None:
    """Skip the test when bubblewrap cannot start here (fail under ``PYTORCH_NOTES_REQUIRE_SANDBOX``)."""
    from pytorch_notes.execute.sandbox import bwrap_status

    path, why = bwrap_status()
    if path is None:
        if os.environ.get("PYTORCH_NOTES_REQUIRE_SANDBOX"):
            pytest.fail(f"PYTORCH_NOTES_REQUIRE_SANDBOX is set but {why}")
        pytest.skip(why)


def alive_with(marker: str) -> list[int]:
    """Live (not zombie) processes whose command line holds ``marker``: how a test finds what an example
    left running, since pids inside a sandbox are not this process's pids."""
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state not in (b"Z", b"X"):
            found.append(int(name))
    return found
