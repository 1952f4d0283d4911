"""The project's one atomic write: a file is written whole or not at all, so a reader (another build, a
capture, an editor) sees the old file or the new one, never a part. Standard library only, imported by
every stage that writes a file it may read again: the record store, the twins ledger, the change report,
the memos (``filememo``), the build's cache (``site/cache.py``), the notebooks and ``prewarm``."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes | str, *, durable: bool = False) -> None:
    """Write ``data`` (a ``str`` as UTF-8) to ``path`` through a temporary file ``.<name>.*.tmp`` beside it,
    renamed onto it; the folders are made. ``durable``: the data reach the disk before the rename
    (``fsync``), for files that are kept (records, the ledger), not for a cache that can be rebuilt.

    Raises:
        OSError: the folder or the file cannot be written; no temporary file is left behind.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
