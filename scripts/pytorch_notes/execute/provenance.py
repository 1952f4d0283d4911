"""Parent side of execute: where a run happened (device, driver, versions, isolation), as the capture
process finds it itself: never as the example's process reports it. Standard library only."""

from __future__ import annotations

import ast
import functools
import importlib.util
import platform
import re
import subprocess
import sys
from pathlib import Path

NVIDIA_VERSION_FILE = "/proc/driver/nvidia/version"
# e.g. "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03  Thu Oct 19 18:56:32 UTC 2023"
# or   "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.15  Release Build  ..."
_NVRM_RE = re.compile(r"^NVRM version:.*?\s(\d+\.\d+(?:\.\d+)?)(?:\s|$)", re.MULTILINE)


def imported_modules(sources: list[str]) -> list[str]:
    """Top-level names of the absolute imports in ``sources`` (``import a.b``, ``from a import b`` -> ``a``),
    minus the standard library (``sys.stdlib_module_names``), sorted. Found statically, so an import
    inside a function that never ran still counts; relative imports do not."""
    names = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return sorted(names - set(sys.stdlib_module_names) - {"__future__"})


def library_versions(modules: list[str], exclude: frozenset[str] = frozenset({"torch"})) -> dict[str, str]:
    """``{distribution: version}`` of the installed distributions that provide ``modules``
    (mapped with ``importlib.metadata.packages_distributions``, e.g. ``sklearn`` -> ``scikit-learn``).

    Modules no distribution provides (the example's own helpers) are left out, and so are the
    distributions in ``exclude`` (torch has its own provenance field).
    """
    return dict(_library_versions(tuple(modules), exclude))


@functools.lru_cache(maxsize=256)  # ~0.3 s a scan; a capture asks once per example
def _library_versions(modules: tuple[str, ...], exclude: frozenset[str]) -> tuple[tuple[str, str], ...]:
    modules = [m for m in modules if m not in exclude]
    if not modules:  # most examples import torch only: skip the scan
        return ()
    from importlib import metadata  # noqa: PLC0415 - scanning distributions costs ~0.3 s; only when needed

    providers = metadata.packages_distributions()
    found = {}
    for module in modules:
        for dist in providers.get(module, []):
            if dist in exclude or dist.lower() in exclude:
                continue
            try:
                found[dist] = metadata.version(dist)
            except metadata.PackageNotFoundError:
                pass
    return tuple(sorted(found.items(), key=lambda kv: kv[0].lower()))


def parse_nvidia_version(text: str) -> str | None:
    """The driver version in the text of ``/proc/driver/nvidia/version`` (``"535.129.03"``), or None."""
    m = _NVRM_RE.search(text)
    return m.group(1) if m else None


def nvidia_driver() -> str | None:
    """The NVIDIA driver version of this machine: from ``/proc/driver/nvidia/version``, else from
    ``nvidia-smi --query-gpu=driver_version --format=csv,noheader``; None when neither answers."""
    try:
        with open(NVIDIA_VERSION_FILE, encoding="utf-8", errors="replace") as f:
            version = parse_nvidia_version(f.read())
        if version:
            return version
    except OSError:
        pass
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = out.stdout.strip().splitlines()
    return lines[0].strip() if out.returncode == 0 and lines and lines[0].strip() else None


DEVICE_FIELDS = ("device", "device_kind", "driver", "torch", "cuda")


def cpu_only_torch() -> str | None:
    """``torch.__version__`` when the installed torch is a build without CUDA or ROCm (``torch/version.py``
    says ``cuda = None`` and ``hip = None``), read without importing torch; else None (no torch, or one
    that may see a GPU and must be asked)."""
    try:
        spec = importlib.util.find_spec("torch")
        text = Path(spec.origin).with_name("version.py").read_text(encoding="utf-8") if spec and spec.origin else ""
        values = {t.id: node.value.value for node in ast.parse(text).body
                  if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Constant)
                  for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}
    except (ImportError, OSError, SyntaxError, ValueError):
        return None
    version = values.get("__version__")
    return version if isinstance(version, str) and values.get("cuda", "") is None and values.get("hip", "") is None \
        else None


def device() -> dict | None:
    """The device fields of a provenance as torch sees this machine: ``device`` ("CPU" without CUDA, else
    ``torch.cuda.get_device_name(0)``), ``device_kind`` (``cpu``/``cuda``), ``driver`` (NVIDIA driver
    version on CUDA, else None), ``torch`` (``torch.__version__``) and ``cuda`` (``torch.version.cuda`` on
    CUDA, else None). None when torch is not installed. A torch built without CUDA or ROCm (``cpu_only_torch``)
    is described from its version file; any other is imported and asked (about 1.8 s on a 2-core machine)."""
    torch = sys.modules.get("torch")
    if torch is None and (version := cpu_only_torch()) is not None:
        return {"device": "CPU", "device_kind": "cpu", "driver": None, "torch": version, "cuda": None}
    if torch is None:
        try:
            import torch  # noqa: PLC0415 - costly; only when asked
        except ImportError:
            return None
    info = {"device": "CPU", "device_kind": "cpu", "driver": None, "torch": torch.__version__, "cuda": None}
    if torch.cuda.is_available():
        info.update(device=torch.cuda.get_device_name(0), device_kind="cuda", cuda=torch.version.cuda,
                    driver=nvidia_driver())
    return info


def provenance(sources: list[str], found: dict | None, isolation: str) -> dict:
    """Describe a run as the capture process sees this machine.

    Args:
        sources: the example's cells; their imports give ``libraries``.
        found: ``device()`` of the capture's own interpreter (the one the example runs with), or None
            when torch is not installed there.
        isolation: ``sandbox.Sandbox.isolation`` of the run.

    Returns:
        The fields of ``device()`` (CPU and None for torch's when ``found`` is None), ``python``,
        ``platform``, ``libraries`` (``library_versions``) and ``isolation``.
    """
    info = {"device": "CPU", "device_kind": "cpu", "driver": None, "torch": None, "cuda": None,
            "python": platform.python_version(), "platform": platform.platform(terse=True),
            "libraries": library_versions(imported_modules(list(sources))), "isolation": isolation}
    if found is not None:
        info.update({k: found[k] for k in DEVICE_FIELDS})
    return info


@functools.cache
def host_device() -> dict | None:
    """``provenance.device()`` of this process, found once (it imports torch: ~1.8 s): the device the
    examples run on, since they run this interpreter. None when torch is not installed."""
    return device()


def this_device_kind() -> str:
    """``"cuda"`` if torch is importable here and sees a CUDA device, else ``"cpu"`` (``host_device``)."""
    found = host_device()
    return found["device_kind"] if found is not None else "cpu"
