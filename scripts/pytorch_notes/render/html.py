"""Stage 4, render: turn an example and its stored records into page Markdown.

Code cells become fenced code blocks (highlighted by pymdownx like every other code block on the site, with
Material's copy button), their comments in the page's language (``comments.localize``) and their line
numbers those of the example as the ``.py`` download of that language holds it; the line numbers of the
example's frames in a stored traceback follow them (``comments.map_line``). Outputs become one-line raw HTML
blocks made by the output-kind registry (``kinds.py``) from the site's templates (``templating.Templates``:
autoescape), so an output containing ``<script>`` or a backtick shows as text. An example captured on more
than one device gets one content tab per device (pymdownx.tabbed; Material's linked tabs keep the
reader's choice across pages), the freshest first and the GPU before the CPU; its code is on the page once,
in the first tab, and each device's outputs follow each cell in a section shown with that device's tab
(``_device``; the stylesheet, ``docs/assets/pytorch-notes.css``, switches them). No MkDocs import:
the hook passes a ``url_for`` callback for asset URLs.

A record file is untrusted (a pull request may change it), so every field of it that reaches the
page goes through ``escape.py``, the renderer's one path: provenance fields through ``page_provenance`` (one line,
no control characters), texts through ``clean_text``; the templates escape them where they become HTML,
and ``markdown_text`` where Markdown reads them (a tab's title). The record's example path names
files only after ``safe_rel``, and a figure is served only when it is a PNG within the limits
(``store.untrusted.figure_problem``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from dataclasses import dataclass

from pytorch_notes.comments import localize, map_line, shown_cells
from pytorch_notes.parse import Cell, Example
from pytorch_notes.render.escape import clean_text, field, markdown_text, safe_rel
from pytorch_notes.render.footer import Links, comparison, device_label, footer, verification_line
from pytorch_notes.render.kinds import Context, kind_of, output_block, streams_block
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.render.templating import PACKAGE, Templates, trusted
from pytorch_notes.store.model import Image, Output, Record, Stream
from pytorch_notes.store.records import STATE_RANK, DeviceOutputs, Freshness
from pytorch_notes.store.untrusted import figure_problem

# Links, device_label and verification_line live in footer.py; the site and the tests import them from here too.
__all__ = ["STRINGS", "Asset", "Links", "clean_text", "device_label", "figure_alt", "figure_assets",
           "render_example", "verification_line"]
FIGURE_TEXT_LANG = "en"  # the language of a figure's own titles and of a cell's caption= (CONTRIBUTING)

@dataclass(frozen=True)
class Asset:
    """A file the site must serve for an embedded example (a figure)."""

    path: str  # site path, e.g. "outputs/autograd/leaf/cell2-1.png"
    data: bytes


def asset_dir(rel: str) -> str:
    """Site folder of an example's generated files, e.g. ``outputs/autograd/leaf``."""
    return "outputs/" + rel[:-3]


def figure_assets(record: Record | None) -> dict[tuple[int, int], Asset]:
    """The PNG figures of a stored record, keyed by (cell index, position among outputs).

    Figures of a record of another device than the CPU carry the device kind in their file name
    (``cell2-1.cuda.png``), so records of two devices never share a file. A figure that is not a PNG
    within the limits (``store.untrusted.figure_problem``) has no file; the page says it is not shown.
    The folder is named after the record's example through ``safe_rel`` (a record file is untrusted)."""
    assets: dict[tuple[int, int], Asset] = {}
    if record is None:
        return assets
    tag = "" if record.device_kind == "cpu" else f".{safe_rel(record.device_kind)}"
    folder = asset_dir(safe_rel(record.example))
    for cell in record.cells:
        n = 0
        for pos, out in enumerate(cell.outputs):
            if isinstance(out, Image):
                n += 1
                if figure_problem(out):
                    continue
                path = f"{folder}/cell{int(cell.index) + 1}-{n}{tag}.png"
                assets[(cell.index, pos)] = Asset(path, base64.b64decode(out.data))
    return assets


def _fence(source: str, line: int, title: str | None) -> str:
    ticks = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", source)), default=0))
    opts = f' linenums="{line}"' + (f' title="{title}"' if title else "")
    return f"{ticks}python{opts}\n{source}\n{ticks}"


def _notice(tpl: Templates, kind: str, title: str, body, detail: str = "") -> str:
    """A Material admonition as one line of raw HTML (``templates/example/notice.html``): ``body`` is text, or a
    UI string marked ``trusted``; ``detail`` is cleaned (``clean_text``) and shown as code."""
    return tpl.render("example/notice.html", kind=kind, title=title, body=body, detail=clean_text(detail))


@dataclass
class _Parts:
    """What one device's record adds to an example: notices (a failure, stale outputs), each shown cell's
    output blocks (by cell index), the footer, and the figure files those outputs reference."""

    notices: list[str]
    outputs: dict[int, list[str]]
    footer: str
    assets: list[Asset]


def _device_parts(tpl: Templates, example: Example, dev: DeviceOutputs, lang: str, url_for: Callable[[str], str],
                  links: Links) -> _Parts:
    """The blocks of one device's record (``_Parts``); a cell whose stored outputs belong to other code (a stale
    record, the cell since changed) has none."""
    t = STRINGS[lang]
    record = dev.record
    notices: list[str] = []
    if f := dev.failure:
        notices.append(_notice(tpl, "failure", t["failed_title"], t["failed"], f"{field(f.location)}: {f.message}"))
    if dev.state == "stale":
        notices.append(_notice(tpl, "warning", t["stale_title"], trusted(t["stale"])))
    assets = figure_assets(record)
    stored = {c.index: c for c in record.cells} if record else {}
    used: list[Asset] = []
    outputs: dict[int, list[str]] = {}
    figures = 0
    shown = shown_cells(example.cells, lang)
    keys = {c.index: c.key for c in example.cells}
    where = {"example_path": f"examples/{example.rel}",
             "line_map": (lambda n: map_line(n, record.cells, shown, keys)) if record else None,
             "show_code": lambda code: localize(code, lang), "templates": tpl}
    for cell in example.cells:
        old = stored.get(cell.index)
        if old is None or (dev.state != "fresh" and old.key != cell.key):
            continue
        blocks = outputs.setdefault(cell.index, [])
        for pos, out in _runs(old.outputs):
            asset = assets.get((cell.index, pos))
            where["took"] = f"{old.duration_s:.2f} s" if pos == 0 else ""  # in the first output's label
            ctx = Context(t, **where)
            if asset is not None:
                figures += 1
                used.append(asset)
                alt = figure_alt(out, cell, lang, figures, example.rel)
                ctx = Context(t, url_for(asset.path), alt, **where)  # cleaned where it is shown (kinds)
            if isinstance(out, list):  # stdout and stderr by turns: one block, as printed
                rendered = streams_block(out, ctx)
            elif isinstance(out, Image) and asset is None:  # refused by figure_assets
                rendered = output_block(t["figure_refused"], "pn-output--stderr", t["stderr"], t, ctx.took, tpl)
            else:
                rendered = kind_of(out).html(out, ctx)
            blocks += [rendered] if rendered else []
    return _Parts(notices, outputs, footer(tpl, example, record, lang, links), used)


def _code(example: Example, lang: str) -> dict[int, str]:
    """Each cell's fenced code block as the page of ``lang`` shows it (the first titled with the example)."""
    return {i: _fence(c.source, c.line, example.rel if i == 0 else None)
            for i, c in shown_cells(example.cells, lang).items()}


def _device(n: int, blocks: list[str]) -> list[str]:
    """``blocks`` of the ``n``-th device (0: the tab shown first) in a section that the stylesheet shows while
    that device's tab is chosen (docs/assets/pytorch-notes.css). Search indexes the first device's only: a
    <section>, not a <div>, excludes the others, since Material's search parser compares elements by tag name,
    so the first inner <div> it skipped itself (the code's line numbers, "linenodiv") ended the exclusion of
    an excluding <div> (Material 9.8.1, material/plugins/search/plugin.py: Element.__eq__/__hash__ use the
    tag only). The blank lines around the tags leave the content Markdown."""
    if not blocks:
        return []
    more = ' data-search-exclude="true"' if n else ""
    return [f'<section class="pn-device" data-pn-device="{n + 1}"{more}>', *blocks, "</section>"]


def _runs(outputs: tuple[Output, ...]) -> list[tuple[int, Output | list[Stream]]]:
    """A cell's outputs with their positions, each run of two or more consecutive streams as one list: the
    runner merges consecutive text of one stream, so such a run is stdout and stderr printed by turns (a
    warning between a table's header and its rows), which the page shows in one block, in that order."""
    runs: list[tuple[int, Output | list[Stream]]] = []
    for pos, out in enumerate(outputs):
        if isinstance(out, Stream) and runs and isinstance(runs[-1][1], Stream | list):
            start, prev = runs[-1]
            runs[-1] = (start, [*prev, out] if isinstance(prev, list) else [prev, out])
        else:
            runs.append((pos, out))
    return runs


def figure_alt(out: Image, cell: Cell, lang: str, n: int, rel: str) -> str:
    """The alt text and caption of a figure on a page of ``lang`` (the notebook page's too): the cell's
    ``caption_<lang>=``; else, on a page in the figures' own language (``FIGURE_TEXT_LANG``), the figure's
    titles (``Image.alt``) or the cell's ``caption=``; else a generic line with the figure's number ``n`` in
    example ``rel`` and its cell. Uncleaned: the template escapes it (``kinds.FIGURE_ALT`` bounds it)."""
    own = str(cell.metadata.get(f"caption_{lang}", ""))
    if not own and lang == FIGURE_TEXT_LANG:
        own = out.alt or str(cell.metadata.get("caption", ""))
    return own or STRINGS[lang]["figure"].format(n=n, example=rel, cell=cell.index + 1)


def _shown(fresh: Freshness) -> list[DeviceOutputs]:
    """The devices with a record, best first: fresh before stale, then CUDA before CPU."""
    order = list(fresh.devices)
    with_record = [d for d in fresh.devices.values() if d.record is not None]
    return sorted(with_record, key=lambda d: (STATE_RANK[d.state], order.index(d.kind)))


def _indent(block: str) -> str:
    return "\n".join(("    " + ln) if ln else ln for ln in block.split("\n"))


def render_example(example: Example, fresh: Freshness, lang: str, url_for: Callable[[str], str],
                   links: Links, anchor: str = "", tpl: Templates = PACKAGE) -> tuple[str, list[Asset]]:
    """Markdown for one embed: code cells, their outputs, figures, provenance and downloads, with one
    content tab per device when the example has records of more than one.

    Args:
        example: the example as it is now on disk.
        fresh: its stored records and their states (``store.records.freshness``).
        lang: ``"zh"`` or ``"en"``.
        url_for: maps a site path (e.g. a figure's) to a URL relative to the page.
        links: download and notebook URLs.
        anchor: the HTML id of the block (default ``example-<chapter>-<name>``); unique on its page.
        tpl: the site's templates (``templating.Templates``; the package's by default).

    Returns:
        (markdown, assets): the Markdown to put in place of the embed line and the figure files it references.
    """
    t = STRINGS[lang]
    anchor = anchor or "example-" + example.rel[:-3].replace("/", "-")
    head = tpl.render("example/head.html", anchor=anchor)
    shown, code = _shown(fresh), _code(example, lang)
    if not shown:
        why = t["missing_cuda"] if example.needs_cuda else t["missing"]
        blocks = [head, _notice(tpl, "warning", t["missing_title"], trusted(why)), *code.values(),
                  footer(tpl, example, None, lang, links)]
        return "\n\n".join(blocks) + "\n", []
    parts = [_device_parts(tpl, example, dev, lang, url_for, links) for dev in shown]
    used = [a for p in parts for a in p.assets]
    if len(shown) == 1:
        p = parts[0]
        blocks = [head, *p.notices, *(b for i in code for b in [code[i], *p.outputs.get(i, [])]), p.footer]
        return "\n\n".join(blocks) + "\n", used
    # several devices: the code once, in the first tab's block, which the stylesheet shows whichever tab is
    # chosen; each device's notices, outputs and footer in sections (_device) shown with its tab. The other
    # tabs' blocks stay empty: a page held every highlighted token once per device (issue 44, item 11)
    blocks = [b for n, p in enumerate(parts) for b in _device(n, p.notices)]
    for i in code:
        blocks += [code[i], *(b for n, p in enumerate(parts) for b in _device(n, p.outputs.get(i, [])))]
    blocks += [b for n, p in enumerate(parts) for b in _device(n, [p.footer])]
    out = [head]
    for n, dev in enumerate(shown):
        label = device_label(dev.record) + (t["stale_tab"] if dev.state != "fresh" else "")
        inside = blocks if n == 0 else ['<div class="pn-device-tab"></div>']
        out.append(f'=== "{markdown_text(label)}"\n\n' + "\n\n".join(_indent(b) for b in inside))
    out.append(comparison(tpl, shown, t))
    return "\n\n".join(out) + "\n", used

