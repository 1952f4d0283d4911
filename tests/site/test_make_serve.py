"""make serve's address (Makefile, scripts/serve_port.py): PORT reaches mkdocs serve, and a taken port stops it
in one line, with a non-zero exit status, before the set-up and the build."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import serve_port  # noqa: E402 - a command-line tool beside the package


def _make(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``make`` in the checkout, in a session of its own so that a failure that starts a server ends with it."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    proc = subprocess.Popen(["make", "--no-print-directory", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"make {' '.join(args)} ran past {timeout} s (it built?):\n"
                             f"{out[-2000:]}{err[-2000:]}") from None
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _listening() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def test_port_reaches_mkdocs_serve():
    proc = _make("-n", "-o", ".venv/.installed-stamp", "serve", "PORT=8123", "ARGS=--open")
    assert proc.returncode == 0, proc.stderr
    served = [ln for ln in proc.stdout.splitlines() if "mkdocs serve" in ln]
    assert len(served) == 1 and "-a 127.0.0.1:8123 --open" in served[0], proc.stdout


def test_a_taken_port_is_one_line_and_a_failure_before_anything_is_built():
    with _listening() as sock:
        port = sock.getsockname()[1]
        proc = _make("serve", f"PORT={port}")
    assert proc.returncode != 0
    lines = (proc.stdout + proc.stderr).splitlines()
    assert len(lines) == 1, lines
    assert f"127.0.0.1:{port} is taken" in lines[0] and f"make serve PORT={port + 1}" in lines[0]


def test_the_check_binds_as_the_server_does():
    with _listening() as sock:
        port = sock.getsockname()[1]
        assert "is taken" in serve_port.taken("127.0.0.1", port)
    assert serve_port.taken("127.0.0.1", port) == ""  # let go: free again (SO_REUSEADDR, as MkDocs binds)
    assert serve_port.main(["127.0.0.1:x"]) == 0 and serve_port.main(["nothing"]) == 2
