"""Print uv's command-line options for the package sources pip is configured with (standard library only).

The Makefile installs the virtualenv with uv, which is several times faster than pip, from the same
``constraints.txt``. uv does not read pip's configuration (``pip.conf``, ``PIP_*`` variables): on a
machine whose pip points at a local folder of wheels (the CPU build of torch among them) uv would
otherwise resolve torch from PyPI alone and download a CUDA build of several GB. This script asks pip
(``python -m pip config list``, which merges the files and the environment; ``python3``'s pip when the
running interpreter has none) and prints the matching
``--index-url``, ``--extra-index-url`` and ``--find-links`` options, one shell word each, and pip's way
of choosing among them (``uv_options``). With no pip
configuration it prints nothing and uv uses PyPI, as pip would.

Usage: ``python scripts/pip_sources.py`` (the Makefile splices the output into ``uv pip install``).
"""

from __future__ import annotations

import shlex
import subprocess
import sys

# pip option -> uv option (both take URLs or paths; pip separates several values with whitespace)
OPTIONS = {"index-url": "--index-url", "extra-index-url": "--extra-index-url", "find-links": "--find-links"}


def parse_config_list(text: str) -> list[tuple[str, str]]:
    """``[(pip option, value), ...]`` from ``pip config list`` output such as
    ``global.find-links='/opt/wheels'`` or ``:env:.extra-index-url='a b'`` (several values split)."""
    found = []
    for line in text.splitlines():
        key, sep, raw = line.partition("=")
        if not sep:
            continue
        option = key.rsplit(".", 1)[-1]
        if option not in OPTIONS:
            continue
        try:
            words = shlex.split(raw)
        except ValueError:
            continue
        for value in " ".join(words).split():
            if (option, value) not in found:
                found.append((option, value))
    return found


def uv_options(pairs: list[tuple[str, str]]) -> list[str]:
    """uv's options for ``pairs``; a single ``--index-url`` (the last pip would use).

    With more than one source, ``--index-strategy unsafe-best-match`` makes uv choose as pip does: the best
    version across all sources (uv's default takes a package only from the first index that has it). A
    local CPU wheel ``torch-2.13.0+cpu`` then wins over PyPI's ``torch-2.13.0``, as in pip (PEP 440 orders a
    local version label after the public version).
    """
    out: list[str] = ["--index-strategy", "unsafe-best-match"] if pairs else []
    index = [v for o, v in pairs if o == "index-url"]
    if index:
        out += ["--index-url", index[-1]]
    for option, value in pairs:
        if option != "index-url":
            out += [OPTIONS[option], value]
    return out


def pip_config() -> str:
    """``pip config list`` of this interpreter's pip, else of ``python3``'s (the Makefile's virtualenv has no
    pip of its own); empty when neither has pip."""
    for python in (sys.executable, "python3"):
        try:
            proc = subprocess.run([python, "-m", "pip", "config", "list"], capture_output=True, text=True,
                                  timeout=60, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if proc.returncode == 0:
            return proc.stdout
    return ""


def main() -> int:
    print(" ".join(shlex.quote(w) for w in uv_options(parse_config_list(pip_config()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
