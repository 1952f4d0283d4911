"""Child side of execute: a cell's stdout and stderr, from Python and from file descriptors 1 and 2.

Standard library only: ``runner.py`` loads it in the example's process, which must not import
the ``pytorch_notes`` package.

The parent starts the child with file descriptors 1 and 2 pointing at two files (never at a
pipe, so a descendant that outlives the example cannot hold up the capture). Whatever reaches
those descriptors, from a C extension, ``os.write`` or a subprocess, lands in the files; the
runner reads the bytes that are new since it last looked (``FdFiles.drain``). Python-level
writes to ``sys.stdout`` / ``sys.stderr`` are written to the same descriptors and drained at
once, so both kinds appear in the order they were written, and the files hold everything a cell
printed: when the process dies in the middle of a cell, the parent still finds its output there.
"""

from __future__ import annotations

import codecs
import io
import os

if __package__:
    from .limits import CELL_TEXT
else:  # loaded by path in the example's process (runner.py)
    from limits import CELL_TEXT


def valid_text(text: str) -> str:
    """``text`` as valid Unicode: each lone surrogate (how Python carries undecodable bytes,
    e.g. ``surrogateescape``) becomes U+FFFD, so the store is always valid UTF-8 JSON."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


def collapse_carriage_returns(tail: str) -> str:
    """Collapse carriage-return rewrites (progress bars) in ``tail``, the text after the last
    newline that was already collapsed, to what a terminal would show.

    A complete line keeps its last non-empty ``\r`` segment; the unfinished last line keeps
    its last segment plus a trailing ``\r`` if it ends with one, so later writes still
    overwrite it. ``render.clean_text`` reuses it at display time.
    """
    lines = tail.split("\n")
    for i, line in enumerate(lines):
        if "\r" in line:
            parts = [p for p in line.split("\r") if p]
            keep = parts[-1] if parts else ""
            lines[i] = keep + ("\r" if i == len(lines) - 1 and line.endswith("\r") else "")
    return "\n".join(lines)


class Budget:
    """Characters of text a cell may still store, and how many were dropped past the limit."""

    def __init__(self, limit: int = CELL_TEXT):
        self.left, self.dropped = limit, 0


class CellSink:
    """The output list of the cell being run, with its text budget.

    ``append_text`` merges consecutive text of one stream into one record, makes it valid
    UTF-8, collapses progress-bar rewrites as they arrive and stores at most the budget.
    """

    def __init__(self, limit: int = CELL_TEXT) -> None:
        self.outputs: list = []
        self.limit = limit
        self.budget = Budget(limit)

    def append_text(self, name: str, text: str) -> None:
        """Add ``text`` written to stream ``name`` (``"stdout"`` or ``"stderr"``)."""
        if not text:
            return
        if self.budget.left <= 0:
            self.budget.dropped += len(text)
            return
        text = valid_text(text)
        last = self.outputs[-1] if self.outputs else None
        if not (last and last["type"] == "stream" and last["name"] == name):
            last = {"type": "stream", "name": name, "text": ""}
            self.outputs.append(last)
        before = len(last["text"])
        combined = last["text"] + text
        if "\r" in text:
            start = combined.rfind("\n", 0, before) + 1
            combined = combined[:start] + collapse_carriage_returns(combined[start:])
        grown = len(combined) - before
        if grown > self.budget.left:
            self.budget.dropped += grown - self.budget.left
            combined = combined[:before + self.budget.left]
            grown = self.budget.left
        last["text"] = combined
        self.budget.left -= grown

    def finish(self) -> list:
        """The outputs, with a notice when text was cut and how much."""
        if self.budget.dropped:
            self.outputs.append({
                "type": "stream", "name": "stderr",
                "text": f"[output truncated by capture: {self.budget.dropped:,} more characters not stored; "
                        f"the limit is {self.limit:,} characters per cell]\n"})
        return self.outputs


class FdFiles:
    """The files behind file descriptors 1 and 2, read from where the runner last stopped.

    Args:
        stdout_path: the file fd 1 writes to (opened by the parent with ``O_APPEND``).
        stderr_path: the file fd 2 writes to.
    """

    CHUNK = 1 << 20

    def __init__(self, stdout_path: str, stderr_path: str):
        self.sink: CellSink | None = None
        self._files = []
        for name, path in (("stdout", stdout_path), ("stderr", stderr_path)):
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            self._files.append([name, fd, os.fstat(fd).st_size, decoder])  # output before cell 1 is not a cell's

    def offsets(self) -> list[int]:
        """How far each file has been read (bytes): where the next cell's output starts."""
        return [entry[2] for entry in self._files]

    def drain(self) -> None:
        """Move the bytes written to fds 1 and 2 since the last call into the current cell."""
        for entry in self._files:
            name, fd, offset, decoder = entry
            size = os.lseek(fd, 0, os.SEEK_END)  # cheaper than fstat; reads use pread, not the offset
            if size <= offset:
                continue
            sink = self.sink
            if sink is not None and sink.budget.left <= 0:  # over the limit: count, do not read
                sink.budget.dropped += size - offset
                entry[2] = size
                continue
            while offset < size:
                data = os.pread(fd, min(self.CHUNK, size - offset), offset)
                if not data:
                    break
                offset += len(data)
                if sink is not None:
                    sink.append_text(name, decoder.decode(data))
            entry[2] = offset

    def flush_decoders(self) -> None:
        """Emit what an unfinished UTF-8 sequence at a cell's end stands for (U+FFFD)."""
        for name, _fd, _offset, decoder in self._files:
            if self.sink is not None:
                self.sink.append_text(name, decoder.decode(b"", final=True))
            decoder.reset()


class PyStream(io.TextIOBase):
    """``sys.stdout`` / ``sys.stderr`` during a cell: the fd files are drained into the cell, the text is
    written to the real descriptor (1 or 2) and drained in turn, so it lands in order with what C code
    and subprocesses wrote, and stays in the file if the process dies before the cell ends.

    ``fileno()`` is the real descriptor, so code that writes to it, or passes it to a subprocess,
    still lands in the cell, in order. In a process forked from the runner (a multiprocessing
    worker) the text is only written: the forked copy's output list is not the runner's.
    """

    def __init__(self, name: str, fd: int, files: FdFiles):
        self.name, self.fd, self.files = name, fd, files
        self.pid = os.getpid()
        self.buffer = _BinaryStream(self)

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not text:
            return 0
        sink = self.files.sink
        if os.getpid() == self.pid and sink is not None and sink.budget.left <= 0:
            sink.budget.dropped += len(text)  # over the limit: only counted, so order no longer matters
            return len(text)
        mine = os.getpid() == self.pid
        if mine:
            self.files.drain()  # what C code or a subprocess wrote before, on either descriptor, comes first
        data = valid_text(text).encode("utf-8")
        while data:
            data = data[os.write(self.fd, data):]
        if mine:
            self.files.drain()
        return len(text)

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return "utf-8"


class _BinaryStream(io.RawIOBase):
    """``sys.stdout.buffer`` of a ``PyStream``: bytes are decoded as UTF-8, invalid ones replaced."""

    def __init__(self, text: PyStream):
        self.text = text
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.text.write(self.decoder.decode(bytes(data)))
        return len(data)

    def fileno(self) -> int:
        return self.text.fd
