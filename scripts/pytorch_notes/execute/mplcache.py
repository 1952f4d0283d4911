"""matplotlib's font cache for an example's ``MPLCONFIGDIR``, so no run prints "Matplotlib is building the
font cache" (parent side). Standard library only."""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

_MPL_CACHE = """
import glob, os, shutil, sys
import matplotlib
found = glob.glob(os.path.join(matplotlib.get_cachedir(), "fontlist-*.json"))
if found:
    for f in found:
        shutil.copy(f, sys.argv[1])
else:
    os.environ["MPLCONFIGDIR"] = sys.argv[1]
    import matplotlib.font_manager
"""


def mpl_config(target: Path) -> None:
    """Fill ``target`` (an example's ``MPLCONFIGDIR``) with matplotlib's font cache (``mpl_template``)."""
    target.mkdir(parents=True, exist_ok=True)
    for f in mpl_template().glob("*.json"):
        shutil.copyfile(f, target / f.name)


@functools.cache
def mpl_template() -> Path:
    """A folder holding matplotlib's font cache for this interpreter, made once per process outside any
    sandbox: a copy of the user's cache when there is one (``matplotlib.get_cachedir()``), else built
    (a few seconds); empty when matplotlib is not installed. Removed when the process exits."""
    folder = Path(tempfile.mkdtemp(prefix="pn-mpl-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    subprocess.run([sys.executable, "-c", _MPL_CACHE, str(folder)], capture_output=True, timeout=300,
                   stdin=subprocess.DEVNULL, check=False)
    return folder
