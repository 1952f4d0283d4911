"""Does a stored record prove that an example runs on this machine as it is now? (Standard library only.)

``make test`` has to show that every embedded example still runs. Running all of them costs minutes
(one process each; importing torch alone takes ~1.8 s on the project's 2-core machine), while most are
exactly what the store says ran: a record is **proof** when it was captured on this machine's device
kind, from the same code (its key: the AST of every cell, the cell options and the header), with the same
Python and torch, on the same operating system, with the same versions of every library the example
imports. Then the run would repeat the stored one, and the test reads the record instead of re-running,
in the way a build system reuses a test result whose inputs did not change. Anything else (a record that
is missing, stale, or from another environment, or a failed capture of this code) is run.
``make test ARGS=--run-examples=all`` runs every example regardless (the GitHub test workflow does).
"""

from __future__ import annotations

import platform
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from pytorch_notes.parse import Example
from pytorch_notes.settings import EXAMPLES_DIR
from pytorch_notes.store.records import device_outputs


@dataclass(frozen=True)
class Environment:
    """This machine as a record's provenance describes one.

    Attributes:
        device_kind: ``"cuda"`` when torch sees a GPU, else ``"cpu"`` (the record a capture here writes).
        torch: ``torch.__version__``; python: ``platform.python_version()``; system: ``platform.system()``.
    """

    device_kind: str
    torch: str
    python: str
    system: str


def current_environment() -> Environment:
    """Describe this machine (imports torch to ask whether a GPU is present).

    Raises:
        ImportError: torch is not installed.
    """
    import torch  # noqa: PLC0415 - only the test session needs it

    kind = "cuda" if torch.cuda.is_available() else "cpu"
    return Environment(kind, torch.__version__, platform.python_version(), platform.system())


def _installed(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def unproved(example: Example, env: Environment, examples_dir: Path = EXAMPLES_DIR) -> str | None:
    """Why the store does not prove that ``example`` runs here (a sentence), or None when it does.

    Raises:
        StoreError: a store file of the example is unreadable (the message names it).
    """
    outputs = device_outputs(example, env.device_kind, examples_dir)
    if outputs.failure is not None:
        return f"its last {env.device_kind} capture of this code failed"
    if outputs.record is None:
        return f"no {env.device_kind} record"
    if outputs.state != "fresh":
        return f"its {env.device_kind} record is {outputs.state} (the code changed)"
    p = outputs.record.provenance
    if p.torch != env.torch:
        return f"captured with torch {p.torch}, this machine has {env.torch}"
    if p.python != env.python:
        return f"captured with Python {p.python}, this machine has {env.python}"
    if not p.platform.startswith(f"{env.system}-"):
        return f"captured on {p.platform}, this machine runs {env.system}"
    for dist, captured in p.libraries.items():
        if (here := _installed(dist)) != captured:
            return f"captured with {dist} {captured}, this machine has {here or 'none'}"
    return None
