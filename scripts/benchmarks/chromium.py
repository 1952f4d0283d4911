"""Which Chromium the browser tests and the ``reader`` bench drive (Playwright's own download is never used).

Order: env ``CHROMIUM`` (a name on PATH or a path), else Debian's ``chromium-headless-shell``, else
``chromium`` or ``chromium-browser``. The headless shell is the build Playwright itself launches for
headless runs (its "old headless" mode, without the full browser's window and compositor). Measured on
2 cores with Chromium 150: ``pytest -m browser`` (52 tests, site built) took 193-201 busy core-seconds
and 102-105 s with it, 248 core-seconds and 128 s with ``chromium``; the same tests pass with both.
"""

from __future__ import annotations

import os
import shutil

CANDIDATES = ("chromium-headless-shell", "chromium", "chromium-browser")
INSTALL = "apt-get install chromium-headless-shell fonts-wqy-zenhei"  # without a CJK font Chinese shows boxes


def find_chromium() -> str | None:
    """Path of the Chromium to drive (see the module docstring); None when none is found, or when env
    ``CHROMIUM`` names no executable."""
    named = os.environ.get("CHROMIUM", "").strip()
    if named:
        return shutil.which(named)
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)
