"""The output-kind registry: for each kind of output, its HTML on a page, its nbformat form in a
notebook, and the lines ``make capture ARGS=--check`` compares between two runs.

Adding a kind is one dataclass in ``store/model.py``, one entry in ``KINDS`` here and, for its HTML, a
template in ``templates/example/`` (``templating.py``). Every text that comes from an example or a record
file is untrusted; it reaches HTML and notebooks only through ``escape.py``, the renderer's one path for it
(control characters, bounds), and is escaped in HTML by the templates (autoescape).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from pytorch_notes.execute import limits
from pytorch_notes.render.escape import clean_text, field, one_html_line, sanitize_html
from pytorch_notes.render.templating import PACKAGE, Templates, trusted
from pytorch_notes.store.model import Display, Error, Image, Output, Stream
from pytorch_notes.store.untrusted import figure_problem, page_text

LONG_OUTPUT_LINES = 25  # more lines than this: the output is collapsed under a summary line
FIGURE_ALT = 500  # characters of a figure's alt text and caption (what the capture keeps)


@dataclass(frozen=True)
class Context:
    """What rendering one output needs besides the output itself.

    Attributes:
        t: the UI strings of the page's language (``render.html.STRINGS[lang]``).
        figure_url: the URL of this output's figure file (images only), else "".
        figure_alt: the alt text and caption of this output's figure (images only).
        execution_count: the notebook's execution count of the cell.
        example_path: ``examples/<chapter>/<name>.py``, to pick the frames of the example in a traceback.
        line_map: maps a line of the example as it ran to the line the page shows it on (the code is
            shown with its comments in the page's language, ``comments.map_line``); None keeps lines.
        show_code: turns a source line quoted in a traceback into the page's language
            (``comments.localize``); None keeps it.
        took: the cell's run time, shown in the label of its first output (``render/html.py``).
        templates: the site's templates (``templating.Templates``); the package's by default.
    """

    t: dict
    figure_url: str = ""
    figure_alt: str = ""
    execution_count: int = 0
    example_path: str = ""
    line_map: Callable[[int], int] | None = None
    show_code: Callable[[str], str] | None = None
    took: str = ""  # the cell's run time ("0.12 s"), in the label of its first output; "" for none
    templates: Templates = PACKAGE


@dataclass(frozen=True)
class Kind:
    """One entry of the registry: how an output kind is shown, stored in a notebook and compared."""

    html: Callable[[Output, Context], str]
    nbformat: Callable[[Output, Context], dict]
    compare: Callable[[Output], list[str]]


def output_block(text: str, classes: str, label: str, t: dict, took: str = "",
                 templates: Templates = PACKAGE) -> str:
    """A labelled output block (``templates/example/output.html``; its label, ``label.html``, holds the
    cell's run time ``took``); text of more than ``LONG_OUTPUT_LINES`` lines is collapsed."""
    body = clean_text(text).rstrip("\n")
    n = body.count("\n") + 1
    summary = t["long_output"].format(lines=n) if n > LONG_OUTPUT_LINES else ""
    return templates.render("example/output.html", classes=classes, label=label, took=took, summary=summary,
                            text=body)


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


# --- stream ----------------------------------------------------------------------------------------------

_BILINGUAL = re.compile(r"#\s*(?:zh|en):")


def example_text(text: str, example_path: str, line_map: Callable[[int], int] | None = None,
                 show_code: Callable[[str], str] | None = None, frames: bool = True) -> str:
    """Stream text or an error message as the page shows its example: a reference to a line of the
    example (a warning's ``examples/ch/x.py:22: UserWarning``, torch.export's ``# File: …x.py:15 in
    forward``) renumbered by ``line_map``, and a quoted source line carrying the example's bilingual
    comments (``# zh: … | en: …``) rewritten by ``show_code`` in the page's language (see ``Context``).
    ``frames`` False leaves traceback frames (``File "…", line N``) to ``example_traceback``."""
    if example_path and line_map and example_path in text:
        ref = re.compile(re.escape(example_path) + (r"(:|\", line )(\d+)" if frames else r"(:)(\d+)"))
        text = ref.sub(lambda m: f"{example_path}{m.group(1)}{line_map(int(m.group(2)))}", text)
    if show_code and _BILINGUAL.search(text):
        text = "\n".join(_show_quoted(ln, show_code) if _BILINGUAL.search(ln) else ln for ln in text.split("\n"))
    return text


def _show_quoted(line: str, show_code: Callable[[str], str]) -> str:
    """``line`` with the source it quotes (from its first non-blank character, or after ``code: ``)
    shown in the page's language; the prefix is kept as it is."""
    at = line.find("code: ")
    start = at + len("code: ") if at >= 0 else len(line) - len(line.lstrip())
    return line[:start] + show_code(line[start:]).rstrip("\n")


def _stream_html(out: Stream, ctx: Context) -> str:  # output_block cleans the text
    text = example_text(out.text, ctx.example_path, ctx.line_map, ctx.show_code)
    if out.name == "stderr":
        return output_block(text, "pn-output--stderr", ctx.t["stderr"], ctx.t, ctx.took, ctx.templates)
    return output_block(text, "pn-output--stdout", ctx.t["output"], ctx.t, ctx.took, ctx.templates)


def streams_block(outs: list[Stream], ctx: Context) -> str:
    """Stream outputs printed by turns (stdout, stderr, stdout...) as one block, in the order they were printed
    (``templates/example/streams.html``), the stderr parts marked; collapsed when long, as ``output_block``."""
    parts = [{"text": clean_text(example_text(o.text, ctx.example_path, ctx.line_map, ctx.show_code)),
              "stderr": o.name == "stderr"} for o in outs]
    if parts:
        parts[-1]["text"] = parts[-1]["text"].rstrip("\n")
    n = sum(p["text"].count("\n") for p in parts) + 1
    summary = ctx.t["long_output"].format(lines=n) if n > LONG_OUTPUT_LINES else ""
    label = ctx.t["output_with_stderr"] if any(p["stderr"] for p in parts) else ctx.t["output"]
    return ctx.templates.render("example/streams.html", label=label, took=ctx.took, summary=summary, parts=parts,
                                stderr=ctx.t["stderr"])


def _stream_nb(out: Stream, ctx: Context) -> dict:
    return {"output_type": "stream", "name": out.name, "text": _lines(page_text(out.text))}


def _stream_compare(out: Stream) -> list[str]:
    return [f"[{out.name}] {ln}" for ln in out.text.splitlines()]


# --- a cell's value: text/plain, and text/html when the value has one ------------------------------------

def _display_html(out: Display, ctx: Context) -> str:
    rich = out.data.get("text/html")
    if rich is not None and (clean := sanitize_html(rich)) is not None:
        body = trusted(one_html_line(clean.replace("\n", " ")))  # sanitised: markup on one line
        return ctx.templates.render("example/rich.html", label=ctx.t["output"], took=ctx.took, body=body)
    return output_block(out.data.get("text/plain", ""), "pn-output--display", ctx.t["output"], ctx.t, ctx.took,
                        ctx.templates)


def _display_nb(out: Display, ctx: Context) -> dict:
    data = {k: _lines(page_text(v)) for k, v in out.data.items() if k == "text/plain"}
    if "text/html" in out.data and (clean := sanitize_html(out.data["text/html"])) is not None:
        data["text/html"] = _lines(clean)
    return {"output_type": "execute_result", "execution_count": ctx.execution_count, "data": data, "metadata": {}}


def _display_compare(out: Display) -> list[str]:
    return [f"[value] {ln}" for ln in out.data.get("text/plain", "").splitlines()]


# --- exceptions: declared (expected) and unexpected ------------------------------------------------------

_FRAME_LINE_RE = re.compile(r"(, line )(\d+)")


def example_traceback(out: Error, example_path: str, line_map: Callable[[int], int] | None = None,
                      show_code: Callable[[str], str] | None = None) -> str:
    """The traceback as a reader needs it: the frames in the example file, then the message.

    Frames in torch or the standard library are dropped, since they say nothing about the example;
    when no frame is in the example, the whole stored traceback is kept. In the example's frames,
    ``line_map`` renumbers the line and ``show_code`` rewrites the quoted source line (see ``Context``).
    """
    lines = out.traceback.splitlines()
    if not lines or not example_path:
        return f"{out.ename}: {out.evalue}"
    frames, i = [], 1
    while i < len(lines) and lines[i].startswith("  File "):
        frame = [lines[i]]
        i += 1
        while i < len(lines) and lines[i].startswith("    "):
            frame.append(lines[i])
            i += 1
        frames.append(frame)
    mine = [f for f in frames if f'"{example_path}"' in f[0]]
    if line_map or show_code:
        mine = [_relocate(f, line_map, show_code) for f in mine]
    message = "\n".join(lines[i:]) or f"{out.ename}: {out.evalue}"
    kept = mine or frames
    return "\n".join([lines[0], *[ln for f in kept for ln in f], message])


def _relocate(frame: list[str], line_map, show_code) -> list[str]:
    head = frame[0]
    if line_map:
        head = _FRAME_LINE_RE.sub(lambda m: m.group(1) + str(line_map(int(m.group(2)))), head, count=1)
    rest = frame[1:]
    if show_code and rest:
        code = rest[0]
        indent = code[: len(code) - len(code.lstrip())]
        rest = [indent + show_code(code.strip()).rstrip("\n"), *rest[1:]]
    return [head, *rest]


def _clean_error(out: Error) -> Error:
    return dataclasses.replace(out, ename=field(out.ename), evalue=clean_text(out.evalue),
                               traceback=clean_text(out.traceback))


def _error_html(out: Error, ctx: Context) -> str:
    out = _clean_error(out)
    label = ctx.t["raised"] if out.expected else ctx.t["failed_cell"]
    classes = "pn-output--raised" if out.expected else "pn-output--failure"
    out = dataclasses.replace(out, evalue=example_text(out.evalue, ctx.example_path, ctx.line_map, ctx.show_code),
                              traceback=example_text(out.traceback, ctx.example_path, ctx.line_map, ctx.show_code,
                                                     frames=False))
    summary = f"{out.ename}: {out.evalue}".strip().splitlines()[0] if out.evalue else out.ename
    tb = example_traceback(out, ctx.example_path, ctx.line_map, ctx.show_code)
    return ctx.templates.render("example/error.html", classes=classes, label=label, took=ctx.took, summary=summary,
                                traceback=tb)


def _error_nb(out: Error, ctx: Context) -> dict:
    ename, evalue, tb = field(out.ename), page_text(out.evalue), page_text(out.traceback)
    return {"output_type": "error", "ename": ename, "evalue": evalue,
            "traceback": tb.splitlines() or [f"{ename}: {evalue}"]}


def _error_compare(out: Error) -> list[str]:
    return [f"[error] {out.ename}: {out.evalue}"]


# --- figures -------------------------------------------------------------------------------------------

def _image_html(out: Image, ctx: Context) -> str:
    if not ctx.figure_url:
        return ""
    width, height = (min(max(int(n), 1), limits.FIGURE_PIXELS) for n in (out.width, out.height))
    alt = field(ctx.figure_alt, FIGURE_ALT)
    return ctx.templates.render("example/figure.html", t=ctx.t, url=ctx.figure_url, alt=alt, width=width, height=height)


def _image_nb(out: Image, ctx: Context) -> dict:
    if figure_problem(out):  # not a PNG within the limits: as on the page, a line says it is not shown
        return {"output_type": "stream", "name": "stderr", "text": [ctx.t["figure_refused"] + "\n"]}
    return {"output_type": "display_data", "data": {"image/png": out.data}, "metadata": {}}


def _image_compare(out: Image) -> list[str]:
    return [f"[figure] sha256 {hashlib.sha256(out.data.encode()).hexdigest()[:16]}"]


KINDS: dict[type, Kind] = {
    Stream: Kind(_stream_html, _stream_nb, _stream_compare),
    Display: Kind(_display_html, _display_nb, _display_compare),
    Error: Kind(_error_html, _error_nb, _error_compare),
    Image: Kind(_image_html, _image_nb, _image_compare),
}


def kind_of(out: Output) -> Kind:
    """The registry entry of ``out``. Raises KeyError naming the type for a kind without an entry."""
    try:
        return KINDS[type(out)]
    except KeyError:
        raise KeyError(f"no entry for output kind {type(out).__name__} in render/kinds.py KINDS") from None
