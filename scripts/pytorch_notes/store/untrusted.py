"""What the store accepts from an example: the one owner of the rules for untrusted text and sizes.

Everything an example produces is untrusted, and so is every record file (a pull request may touch
only ``examples/_outputs/``). Three places apply these rules:

* the capture process, to what the runner reported, before anything is written (``clean_record``,
  ``clean_failure``): control characters removed, secrets of the capturing environment removed,
  every text and figure bounded (``execute/limits.py``);
* the renderer, to every record it reads (``page_text``), since a record may not come from a capture;
* every command that prints an example's text to a terminal or a CI log (``terminal_text``, ``log_text``).

Which characters are refused is ``characters.py``'s, the policy ``parse.py`` refuses an example's source
with: control characters, format characters (the bidi embeddings, overrides, isolates and marks of
"Trojan Source", CVE-2021-42574; zero-width characters, the tag characters, U+FEFF...), the line and
paragraph separators and every other character a renderer draws as nothing (variation selectors...). In
an output, a page drops the control characters (C0 but newline, tab and carriage return, DEL, C1) and the
escape sequences (CSI, OSC, and the two-character ones): what a terminal would have obeyed, colours and
titles; writes U+2028 and U+2029 as newlines; and shows every other refused character as a visible mark,
``⟨U+202E⟩`` (``characters.shown``), so that a reader of the page, the notebook or the search index sees
that it was there and nothing is reordered or hidden. A terminal shows each as its escape (``\\u202e``).
Standard library only.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import os
import re
import struct
from collections.abc import Mapping
from secrets import token_hex

from pytorch_notes.characters import escaped, shown
from pytorch_notes.execute import limits
from pytorch_notes.policy import MIN_SECRET, SECRET_NAME
from pytorch_notes.store.model import Display, Error, Failure, Image, Output, Provenance, Record, Stream

# An escape sequence: CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), or ESC and one character.
_ESCAPE = r"\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -~]?"
_PAGE_RE = re.compile(rf"{_ESCAPE}|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def page_text(text: str) -> str:
    """``text`` without control characters (newline, tab and carriage return kept: pages collapse
    progress-bar rewrites) or escape sequences, the Unicode line and paragraph separators (U+2028, U+2029)
    as newlines (``str.splitlines`` splits at them, Markdown does not), every other character
    ``characters.py`` refuses (bidi, zero-width, tag characters...) as a visible ``⟨U+XXXX⟩``, and lone
    surrogates as U+FFFD. Applying it again changes nothing."""
    text = _SURROGATE_RE.sub("\ufffd", _PAGE_RE.sub("", text)).replace("\u2028", "\n").replace("\u2029", "\n")
    return shown(text)


def terminal_text(text: str, indent: str = "    ") -> str:
    """``text`` safe to print to a terminal: every character ``characters.py`` refuses and the carriage
    return shown as a visible escape (ESC as ``\\x1b``, U+202E as ``\\u202e``), so it can neither move the
    cursor, erase lines, set the title nor reorder what follows, and a reader sees that it was there; every
    line after the first starts with ``indent``, so a message cannot print a line that looks like the
    command's own (a fake ``[2/2] ...: ok``); and no line is a CI log command (``inert_commands``)."""
    return inert_commands(escaped(_SURROGATE_RE.sub("\ufffd", text), also="\r")).replace("\n", "\n" + indent)


# A CI runner's commands in a log line: GitHub's reads a line whose start, once whitespace is trimmed, is
# "::" (::error, ::add-mask::, ::stop-commands::...) and "##[" anywhere in a line (##[error], like Azure's ##vso[).
_COMMAND_START = re.compile(r"^([^\S\n]*):(?=:)", re.M)
_OLD_COMMAND = re.compile(r"##(?=\[|vso\[)")


def inert_commands(text: str) -> str:
    """``text`` with no line a CI runner would read as a command: ``::`` at a line's start (after any
    whitespace) written ``: :``, and ``##[`` anywhere ``# #[``; a visible change, nothing invisible added.
    Lines end at ``\\n`` here: ``terminal_text`` escapes every other line end first."""
    return _OLD_COMMAND.sub("# #", _COMMAND_START.sub(r"\1: ", text))


def log_text(text: str, indent: str = "    ", environ: Mapping[str, str] | None = None) -> str:
    """``terminal_text(text, indent)`` for a command's output that quotes an example (a failure message, a
    traceback, an output's diff). Under GitHub Actions (``GITHUB_ACTIONS=true`` in ``environ``, default
    ``os.environ``) it stands between ``::stop-commands::<token>`` and ``::<token>::`` with a new random
    token each time: the runner obeys no command in between (GitHub's documented way to print untrusted
    text, "Stopping and starting workflow commands"), and the text cannot end the block early, since it
    cannot know the token and ``inert_commands`` already breaks every ``::`` at a line's start."""
    text = terminal_text(text, indent)
    if (os.environ if environ is None else environ).get("GITHUB_ACTIONS") != "true":
        return text
    token = token_hex(16)
    return f"::stop-commands::{token}\n{text}\n::{token}::"


def one_line(text: str, limit: int = limits.FIELD) -> str:
    """A short field (a device name, a version): page text on one line, at most ``limit`` characters."""
    flat = " ".join(page_text(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


# --- secrets ------------------------------------------------------------------------------------------


class Secrets:
    """The values of the secret-looking variables of an environment, to be removed from stored text.

    A variable is secret-looking when its name matches ``SECRET_NAME`` (``GITHUB_TOKEN``, ``AWS_SECRET_
    ACCESS_KEY``, ``DB_PASSWORD``, ...); values shorter than ``MIN_SECRET`` characters are ignored.
    Examples never see these variables (the sandbox passes an allow-list); this catches what reaches
    an output some other way (``/proc``, a file, the fallback without a sandbox).
    """

    def __init__(self, environ: Mapping[str, str]):
        values = {v for k, v in environ.items() if SECRET_NAME.search(k) and len(v) >= MIN_SECRET}
        self.names = sorted(k for k, v in environ.items() if v in values)
        forms = {form for v in values for form in _encodings(v) if len(form) >= MIN_SECRET}
        ordered = sorted(forms, key=len, reverse=True)  # a secret that contains another goes first
        self._re = re.compile("|".join(re.escape(v) for v in ordered)) if ordered else None

    def scrub(self, text: str) -> str:
        """``text`` with every secret value replaced by ``[secret removed]``."""
        return self._re.sub("[secret removed]", text) if self._re is not None else text


def _encodings(value: str) -> set[str]:
    """``value`` and the forms it is easily printed in: reversed, hex, and base64 (standard and URL-safe,
    the core of each of the three alignments it can have inside a longer text). Not every encoding: what
    an example does not see, it cannot print (``sandbox.ALLOWED``); this catches careless leaks."""
    raw = value.encode("utf-8", "surrogateescape")
    forms = {value, value[::-1], raw.hex(), raw.hex().upper()}
    for shift in range(3):
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            text = encode(b"\0" * shift + raw).decode("ascii").rstrip("=")
            start = (shift * 4 + 2) // 3  # skip the characters the padding bytes spoiled
            core = text[start:len(text) - 3] if len(text) - start > 6 else text[start:]
            forms.add(core)
    return forms


NO_SECRETS = Secrets({})


# --- bounds ---------------------------------------------------------------------------------------------

@dataclasses.dataclass
class _Budget:
    """Characters of text left to one cell and to the whole record."""

    cell: int
    record: int
    figure_bytes: int = limits.RECORD_FIGURE_BYTES

    def take(self, text: str, limit: int | None = None, keep_end: bool = False) -> tuple[str, int]:
        """(kept, dropped): at most ``limit`` (and what is left) characters of ``text``."""
        room = min(self.cell, self.record, len(text) if limit is None else limit)
        kept = text if len(text) <= room else (text[len(text) - room:] if keep_end else text[:room])
        self.cell -= len(kept)
        self.record -= len(kept)
        return kept, len(text) - len(kept)


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) in pixels from a PNG's IHDR chunk, or None when ``data`` is not a PNG."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def figure_problem(out: Image, budget: _Budget | None = None) -> str:
    """Why a stored figure is refused (empty when it is fine): not base64 PNG, too many pixels per side
    (``limits.FIGURE_PIXELS``), too many bytes (``limits.FIGURE_BYTES``) or past the record's figure budget."""
    try:
        data = base64.b64decode(out.data, validate=True)
    except (binascii.Error, ValueError):
        return "not base64"
    size = png_size(data)
    if size is None:
        return "not a PNG image"
    if max(size) > limits.FIGURE_PIXELS:
        return f"{size[0]}x{size[1]} px is larger than {limits.FIGURE_PIXELS} px per side"
    if len(data) > limits.FIGURE_BYTES:
        return f"{len(data):,} bytes is more than {limits.FIGURE_BYTES:,} per figure"
    if budget is not None:
        if len(data) > budget.figure_bytes:
            return f"the record's figures would pass {limits.RECORD_FIGURE_BYTES:,} bytes"
        budget.figure_bytes -= len(data)
    return ""


def _clean_output(out: Output, budget: _Budget, secrets: Secrets, figures: list[int]) -> list[Output]:
    """``out`` cleaned and bounded, and notices of what was cut (a list: a refused figure becomes a notice)."""
    text = lambda s: page_text(secrets.scrub(s))  # noqa: E731
    if isinstance(out, Stream):
        kept, dropped = budget.take(text(out.text))
        return [dataclasses.replace(out, text=kept), *_cut(dropped)]
    if isinstance(out, Display):
        plain, dropped = budget.take(text(out.data.get("text/plain", "")))
        data = {"text/plain": plain}
        rich = text(out.data.get("text/html", ""))
        if rich and not dropped and len(rich) <= min(budget.cell, budget.record):
            data["text/html"] = budget.take(rich)[0]
        return [dataclasses.replace(out, data=data), *_cut(dropped)]
    if isinstance(out, Error):
        evalue, cut_value = budget.take(text(out.evalue), limits.ERROR_VALUE)
        tb, cut_tb = budget.take(text(out.traceback), limits.TRACEBACK, keep_end=True)
        if cut_tb:
            tb = f"[traceback cut by capture: its first {cut_tb:,} characters are not stored]\n" + tb
        return [dataclasses.replace(out, ename=one_line(out.ename), evalue=evalue, traceback=tb),
                *_cut(cut_value)]
    figures[0] += 1
    why = f"more than {limits.FIGURES_PER_CELL} figures in one cell" if figures[0] > limits.FIGURES_PER_CELL \
        else figure_problem(out, budget)
    if why:
        return [Stream("stderr", f"[figure not stored by capture: {why}]\n")]
    return [dataclasses.replace(out, alt=one_line(secrets.scrub(out.alt), 500),
                                width=min(max(out.width, 1), limits.FIGURE_PIXELS),
                                height=min(max(out.height, 1), limits.FIGURE_PIXELS))]


def _cut(dropped: int) -> list[Output]:
    if not dropped:
        return []
    return [Stream("stderr", f"[output truncated by capture: {dropped:,} more characters not stored; the limit is "
                             f"{limits.CELL_TEXT:,} characters per cell and {limits.RECORD_TEXT:,} per record]\n")]


def clean_outputs(outputs: tuple[Output, ...], secrets: Secrets = NO_SECRETS,
                  budget: _Budget | None = None) -> tuple[Output, ...]:
    """One cell's outputs as the store keeps them: control characters and secrets removed, text within
    ``limits.CELL_TEXT`` (and the record's ``budget``), figures checked (``figure_problem``)."""
    budget = budget or _Budget(limits.CELL_TEXT, limits.RECORD_TEXT)
    figures = [0]
    cleaned: list[Output] = []
    for out in outputs:
        cleaned += _clean_output(out, budget, secrets, figures)
    return tuple(cleaned)


def clean_provenance(p: Provenance, secrets: Secrets = NO_SECRETS) -> Provenance:
    """Every text field of a provenance on one line, at most ``limits.FIELD`` characters, secrets removed."""
    short = lambda s: s if s is None else one_line(secrets.scrub(s))  # noqa: E731
    return dataclasses.replace(
        p, device=short(p.device), torch=short(p.torch), cuda=short(p.cuda), python=short(p.python),
        platform=short(p.platform), captured_at=short(p.captured_at), driver=short(p.driver),
        isolation=short(p.isolation),
        libraries={short(k): short(v) for k, v in list(p.libraries.items())[:100]})


def clean_record(record: Record, secrets: Secrets = NO_SECRETS) -> Record:
    """``record`` as the store may keep it: ``clean_outputs`` on every cell under one record budget
    (``limits.RECORD_TEXT``, ``limits.RECORD_FIGURE_BYTES``), ``clean_provenance``."""
    record_budget = limits.RECORD_TEXT
    figure_budget = limits.RECORD_FIGURE_BYTES
    cells = []
    for cell in record.cells:
        budget = _Budget(limits.CELL_TEXT, record_budget, figure_budget)
        cells.append(dataclasses.replace(cell, outputs=clean_outputs(cell.outputs, secrets, budget)))
        record_budget, figure_budget = budget.record, budget.figure_bytes
    return dataclasses.replace(record, provenance=clean_provenance(record.provenance, secrets), cells=tuple(cells))


def clean_failure(failure: Failure, secrets: Secrets = NO_SECRETS) -> Failure:
    """A failure marker with its message within ``limits.MESSAGE`` characters (newlines kept; the start
    kept: its first line says what happened, and a crash report bounds the output it quotes after it),
    its location on one line, secrets removed."""
    message = page_text(secrets.scrub(failure.message))
    if len(message) > limits.MESSAGE:
        message = message[: limits.MESSAGE - 1] + "…"
    prov = clean_provenance(failure.provenance, secrets) if failure.provenance else None
    return dataclasses.replace(failure, message=message, location=one_line(failure.location),
                               status=one_line(failure.status), provenance=prov)
