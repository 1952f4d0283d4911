"""Paths in stored outputs without this machine's directories. Standard library only.

Two rules, used on both sides of execute:

* ``frame_path``: the file name of a traceback frame (see its docstring).
* ``PathScrubber``: every absolute path in captured text (stdout, stderr, displayed values,
  error messages and tracebacks, the raw process output) that starts with one of these
  directories is rewritten, so no stored output depends on where the repository, Python, the
  home directory or the run's temporary directories are (a ``site-packages`` path first, else
  the longest matching directory):

  1. the example's scratch working directory -> ``.`` (``./data.csv``);
  2. its ``TMPDIR``, removed with it -> ``$TMPDIR`` (``$TMPDIR/tmpab12/x``);
  3. ``.../site-packages/...`` or ``.../dist-packages/...`` -> from the marker on
     (``site-packages/torch/nn/modules/module.py``);
  4. the repository -> relative (``examples/ch/x.py``); the repository itself -> ``.``;
  5. ``<sys.prefix or sys.base_prefix>/lib/...`` -> ``lib/python3.11/json/decoder.py``;
  6. the home directory -> ``~`` (``~/.cache/torch``).

  A path is a run of characters other than whitespace, quotes and ``:,;()[]{}<>=|``, starting
  right after one of those (or at the start of the text); any other path is left as it is.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]


def frame_path(filename: str, root: Path = REPO_ROOT) -> str:
    """``filename`` of a traceback frame as the stored output shows it, without this machine's
    directories, so an output does not depend on where the repository or Python is installed:

    * in an installed package: from the package directory, ``site-packages/torch/_tensor.py``
      (``dist-packages`` on Debian's Python);
    * under ``root`` (the repository): relative, ``examples/graph/retain_graph.py``;
    * in Python's standard library: ``lib/python3.11/...``, relative to ``sys.base_prefix``;
    * anything else (``<string>``, another folder): unchanged.
    """
    path = Path(filename)
    if not path.is_absolute():
        return filename
    parts = path.parts
    for marker in ("site-packages", "dist-packages"):  # first: a virtualenv may sit in the repository
        if marker in parts:
            return "/".join(parts[parts.index(marker):])
    if path.is_relative_to(root):
        return path.relative_to(root).as_posix()
    for base in (Path(sys.base_prefix), Path(sys.prefix)):  # in this order: one answer per file
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return filename


_SEP = r"""\s'"`:,;()\[\]{}<>=|"""  # characters that end a path in running text
_TOKEN = rf"[^{_SEP}]*"


class PathScrubber:
    """Rewrites this machine's absolute paths in text by the module's rules.

    Args:
        scratch: the example's working directory (removed after the run).
        tmpdir: the example's ``TMPDIR`` (removed after the run), or None.
        root: the repository root.
        home: the home directory shown as ``~`` (default: this process's).
    """

    def __init__(self, scratch: str | None, tmpdir: str | None = None, root: Path | str = REPO_ROOT,
                 home: str | None = None):
        self.root = Path(root)
        labels: dict[str, str] = {}

        def add(directory: str | os.PathLike | None, label: str) -> None:
            if directory:
                for form in (str(directory), os.path.realpath(directory)):
                    form = form.rstrip("/")
                    if form and form not in labels:
                        labels[form] = label

        add(scratch, ".")
        add(tmpdir, "$TMPDIR")
        add(self.root, "")  # "" = relative to the repository
        for prefix in (sys.base_prefix, sys.prefix):
            add(os.path.join(prefix, "lib"), "lib")
        home = home or os.path.expanduser("~")
        if home not in ("", "/", "~"):
            add(home, "~")
        self._labels = labels
        dirs = "|".join(re.escape(d) for d in sorted(labels, key=len, reverse=True))
        self._re = re.compile(rf"(?<![^{_SEP}])(?P<base>/{_TOKEN}?/(?:site|dist)-packages|{dirs})"
                              rf"(?P<rest>(?:/{_TOKEN})?)(?![^{_SEP}])")

    def _replace(self, m: re.Match) -> str:
        base, rest = m.group("base"), m.group("rest")
        if base.endswith(("/site-packages", "/dist-packages")):
            return base.rsplit("/", 1)[1] + rest
        label = self._labels[base]
        if label == "":
            return rest[1:] or "."
        return label + rest

    def text(self, text: str) -> str:
        """``text`` with this machine's directories rewritten."""
        return self._re.sub(self._replace, text) if "/" in text else text

    def outputs(self, outputs: list) -> list:
        """Rewrite, in place, the text of a cell's output records (stream, display, error)."""
        for out in outputs:
            kind = out.get("type")
            if kind == "stream":
                out["text"] = self.text(out["text"])
            elif kind == "display":
                out["data"] = {mime: self.text(v) if mime.startswith("text/") and isinstance(v, str) else v
                               for mime, v in out["data"].items()}
            elif kind == "error":
                out["evalue"] = self.text(out["evalue"])
                out["traceback"] = self.text(out["traceback"])
        return outputs
