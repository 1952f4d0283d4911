"""The fresh-clone figures of the ``loop`` section: what a new contributor's two commands cost.

Each run clones HEAD of the repository (``git clone``, local: committed work only) into a temporary
folder and runs the command there as a contributor would, with no ``PYTHONPATH`` (the clone's own
editable install is used) and its virtualenv created by the Makefile's installer on first use.
The time runs from the start of the command; the clone itself is not counted. The note splits it at
the moment ``.venv/.installed-stamp`` appears (the set-up done).

``make serve`` answers before the notebook views are converted (``pytorch_notes/site/later.py``): the figures
are the home page answering (a notebook page must answer too, as a placeholder or converted), the notebook
views ready (the server's rebuild after its "notebook views ready" line), and, once the server is stopped
(Ctrl-C; the log must hold no leaked-semaphore report), ``make build`` in the same clone against a second,
warm ``make build``: the two commands share every cache, so the first converts and renders nothing again.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

from pytorch_notes.settings import REPO_ROOT

from benchmarks.figures import Figure
from benchmarks.repo import BenchError, bench_env, timed
from benchmarks.serving import Server, clean_make_env, fetch, poll_until

STAMP = ".venv/.installed-stamp"
NOTEBOOK = "notebooks/autograd/"  # a notebook page that must answer when the home page does
READY = "notebook views ready"  # the server's line once the background conversions end (site/later.py)


def clone_head(dst: Path, src: Path = REPO_ROOT) -> Path:
    """``git clone`` of ``src``'s HEAD into ``dst`` (committed work only)."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=src, capture_output=True, text=True,
                          check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(src), str(dst)], check=True, capture_output=True)
    subprocess.run(["git", "checkout", "-q", head], cwd=dst, check=True, capture_output=True)
    return dst


def contributor_env(tmp: Path) -> dict[str, str]:
    """``bench_env`` without ``PYTHONPATH`` and the enclosing make's variables: a plain shell's."""
    env = clean_make_env(bench_env(tmp))
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    return env


def bench_fresh_serve(tmp: Path, repeat: int, timeout: float = 900) -> list[Figure]:
    """Seconds from ``make serve`` (its recipe from ``make -n serve``, on a free port) in a fresh clone to
    the home page answering 200 with the site, and to the notebook views ready; then ``make build`` right
    after, against a warm ``make build`` (module docstring)."""
    times, ready, after, warm, notes = [], [], [], [], []
    for i in range(repeat):
        root = clone_head(tmp / f"fresh-serve-{i}")
        env = contributor_env(tmp)
        set_up = None
        with Server(root, env, tmp / f"fresh-serve-{i}.log", set_up=True) as server:
            t0 = time.perf_counter()

            def up(server=server, root=root, t0=t0):
                nonlocal set_up
                if set_up is None and (root / STAMP).exists():
                    set_up = time.perf_counter() - t0
                return server.answers()

            if poll_until(up, timeout, interval=0.2) is None:
                raise BenchError(f"fresh clone: make serve did not answer within {timeout:.0f} s:\n"
                                 f"{server.log_text()[-3000:]}")
            times.append(time.perf_counter() - t0)
            if fetch(server.base + NOTEBOOK)[0] != 200:
                raise BenchError(f"fresh clone: the home page answers but /{NOTEBOOK} does not")
            if poll_until(lambda server=server: _views_ready(server.log_text()), timeout, interval=0.2) is None:
                raise BenchError(f"fresh clone: the notebook views were not ready within {timeout:.0f} s:\n"
                                 f"{server.log_text()[-3000:]}")
            ready.append(time.perf_counter() - t0)
        if "leaked" in server.log_text():
            raise BenchError(f"fresh clone: stopping make serve reported leaked resources:\n"
                             f"{server.log_text()[-2000:]}")
        make_env = contributor_env(tmp)
        after.append(timed(["make", "build"], root, make_env)[0])
        warm.append(timed(["make", "build"], root, make_env)[0])
        notes.append(f"{set_up:.0f}" if set_up is not None else "?")
        shutil.rmtree(root, ignore_errors=True)
    return [Figure("fresh clone: make serve -> home page", "s", times, ("<=", 35),
                   f"venv set-up {'/'.join(notes)} s of it; the notebook pages answer as placeholders"),
            Figure("fresh clone: make serve -> notebook views ready", "s", ready,
                   note="converted after the server answers; their pages reload then"),
            Figure("make build right after make serve", "s", after, note="same clone; shared caches"),
            Figure("make build right after make serve / warm make build", "x",
                   [a / w for a, w in zip(after, warm, strict=True)], ("<=", 1.5), "median of the pairs")]


def _views_ready(log: str) -> bool:
    """Whether the server has rebuilt after converting the notebook views (or never had to convert any)."""
    if "notebook views in the background" not in log:
        return "Serving on" in log
    at = log.find(READY)
    return at != -1 and "Reloading browsers" in log[at:]


def bench_fresh_test(tmp: Path, test_args: str = "", timeout: float = 3600) -> Figure:
    """Wall seconds of ``make test`` (``ARGS=test_args``) in a fresh clone, its set-up included; one run."""
    root = clone_head(tmp / "fresh-test")
    env = contributor_env(tmp)
    proc = subprocess.Popen(["make", "test", f"ARGS={test_args}"], cwd=root, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    t0, set_up = time.perf_counter(), None
    out = []
    reader = _drain(proc, out)
    while proc.poll() is None:
        if set_up is None and (root / STAMP).exists():
            set_up = time.perf_counter() - t0
        if time.perf_counter() - t0 > timeout:
            proc.kill()
            raise BenchError(f"fresh clone: make test ran past {timeout:.0f} s")
        time.sleep(0.2)
    total = time.perf_counter() - t0
    reader.join()
    shutil.rmtree(root, ignore_errors=True)
    if proc.returncode != 0:
        raise BenchError(f"fresh clone: make test exited {proc.returncode}:\n{''.join(out)[-4000:]}")
    split = f"venv set-up {set_up:.0f} s of it" if set_up is not None else "set-up time unknown"
    return Figure("fresh clone: make test" + (f" ARGS='{test_args}'" if test_args else ""), "s", [total],
                  ("<", 180), f"1 run (slow); {split}")


def _drain(proc: subprocess.Popen, out: list[str]):
    """A thread reading ``proc``'s output into ``out`` (so that a full pipe never blocks it)."""
    import threading  # noqa: PLC0415

    thread = threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True)
    thread.start()
    return thread
