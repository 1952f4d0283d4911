"""Stage 4, render: turn an example and its stored outputs into page Markdown.

Code cells become fenced code blocks (highlighted by pymdownx like every other code block
on the site, with line numbers matching the file and Material's copy button). Outputs
become raw HTML blocks whose text is HTML-escaped here, so an output containing ``<script>``
shows as text. No MkDocs import: the hook passes a ``url_for`` callback for asset URLs.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from pytorch_notes.execute.runner import collapse_carriage_returns
from pytorch_notes.parse import Example
from pytorch_notes.store.model import Display, Error, Image, Output, Record, Stream
from pytorch_notes.store.records import Freshness

STRINGS = {
    "zh": {
        "captured": "输出捕获于",
        "download_py": "下载 .py",
        "download_ipynb": "下载 .ipynb",
        "notebook": "笔记本视图",
        "raised": "预期的异常",
        "stderr": "标准错误",
        "figure": "图",
        "stale_title": "输出已过期",
        "stale": "这个示例在上次捕获之后改动过。改动过的单元格暂无输出，其余显示上次捕获的结果。"
                 "运行 `make capture` 重新捕获。",
        "missing_title": "尚无输出",
        "missing": "这个示例还没有捕获过输出。运行 `make capture` 来捕获。",
        "missing_cuda": "这个示例需要 GPU，还没有在 GPU 上捕获过输出。",
        "failed_title": "重新捕获失败",
        "failed": "下面是上次成功运行的输出。最近一次捕获失败：",
        "provenance_help": "捕获时间（UTC）：{when}；平台：{platform}；源码 SHA-256：{sha}",
    },
    "en": {
        "captured": "Captured on",
        "download_py": "Download .py",
        "download_ipynb": "Download .ipynb",
        "notebook": "Notebook view",
        "raised": "Expected exception",
        "stderr": "stderr",
        "figure": "Figure",
        "stale_title": "Outputs out of date",
        "stale": "This example changed since it was last captured. Changed cells show no output; the others "
                 "show the last capture. Run `make capture` to refresh.",
        "missing_title": "No outputs yet",
        "missing": "This example has never been captured. Run `make capture`.",
        "missing_cuda": "This example needs a GPU and has not been captured on one yet.",
        "failed_title": "Re-capture failed",
        "failed": "Below is the output of the last good run. The latest capture failed:",
        "provenance_help": "Captured at (UTC): {when}; platform: {platform}; source SHA-256: {sha}",
    },
}


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
    (``cell2-1.cuda.png``), so records of two devices never share a file."""
    assets: dict[tuple[int, int], Asset] = {}
    if record is None:
        return assets
    tag = "" if record.device_kind == "cpu" else f".{record.device_kind}"
    for cell in record.cells:
        n = 0
        for pos, out in enumerate(cell.outputs):
            if isinstance(out, Image):
                n += 1
                path = f"{asset_dir(record.example)}/cell{cell.index + 1}-{n}{tag}.png"
                assets[(cell.index, pos)] = Asset(path, base64.b64decode(out.data))
    return assets


_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def clean_text(text: str) -> str:
    """Make captured text display as a terminal would have left it.

    Strips ANSI escape sequences and collapses carriage-return rewrites (progress bars)
    to the final state of each line, with the rule the capture already applied
    (``runner.collapse_carriage_returns``), so older records display the same way.
    """
    return collapse_carriage_returns(_ANSI_RE.sub("", text)).removesuffix("\r")


def _pre(text: str, classes: str, label: str = "") -> str:
    head = f'<span class="pn-output__label">{html.escape(label)}</span>' if label else ""
    body = html.escape(clean_text(text).rstrip("\n"))
    # One line of raw HTML: Markdown leaves a raw block alone, whatever the text holds.
    body = body.replace("\n", "&#10;")
    return f'<div class="pn-output {classes}">{head}<pre><code>{body}</code></pre></div>'


def render_output(out: Output, asset: Asset | None, t: dict, url_for: Callable[[str], str]) -> str:
    """HTML of one output (``store.model`` has the kinds)."""
    if isinstance(out, Stream):
        if out.name == "stderr":
            return _pre(out.text, "pn-output--stderr", t["stderr"])
        return _pre(out.text, "pn-output--stdout")
    if isinstance(out, Display):
        return _pre(out.data.get("text/plain", ""), "pn-output--display")
    if isinstance(out, Error):
        return _pre(f"{out.ename}: {out.evalue}", "pn-output--raised", t["raised"])
    if isinstance(out, Image) and asset is not None:
        alt = html.escape(f"{t['figure']} {asset.path.rsplit('/', 1)[-1][:-4]}")
        return (f'<figure class="pn-figure"><img src="{html.escape(url_for(asset.path))}" alt="{alt}" '
                f'width="{out.width}" loading="lazy"></figure>')
    return ""


def _fence(source: str, line: int, title: str | None) -> str:
    ticks = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", source)), default=0))
    opts = f' linenums="{line}"' + (f' title="{title}"' if title else "")
    return f"{ticks}python{opts}\n{source}\n{ticks}"


def _admonition(kind: str, title: str, body: str) -> str:
    return f'!!! {kind} "{title}"\n\n    ' + body.replace("\n", "\n    ")


def provenance_html(record: Record, t: dict) -> str:
    """The provenance line, e.g. ``CPU · torch 2.13.0+cpu · Python 3.11.7 · 2026-11-22 · 1.4 s``."""
    p = record.provenance
    parts = [p.device]
    if p.torch:
        parts.append(f"torch {p.torch}")
    if p.cuda:
        parts.append(f"CUDA {p.cuda}")
    if p.driver:
        parts.append(f"driver {p.driver}")
    parts += [f"Python {p.python}", p.captured_at[:10], f"{p.duration_s:.1f} s"]
    tip = t["provenance_help"].format(when=p.captured_at, platform=p.platform, sha=record.source_sha256[:12])
    return (f'<span class="pn-provenance__label">{t["captured"]}</span> '
            f'<span class="pn-provenance__facts" title="{html.escape(tip)}">{html.escape(" · ".join(parts))}</span>')


@dataclass(frozen=True)
class Links:
    """URLs (relative to the page) of an example's downloads and notebook page; empty to omit."""

    py: str
    ipynb: str = ""
    notebook: str = ""


def render_example(example: Example, fresh: Freshness, lang: str, url_for: Callable[[str], str],
                   links: Links) -> tuple[str, list[Asset]]:
    """Markdown for one embed: code cells, their outputs, figures, provenance and downloads.

    Args:
        example: the example as it is now on disk.
        fresh: its stored outputs and their state (``store.freshness``).
        lang: ``"zh"`` or ``"en"``.
        url_for: maps a site path (e.g. a figure's) to a URL relative to the page.
        links: download and notebook URLs.

    Returns:
        (markdown, assets): the Markdown to put in place of the embed line and the figure
        files it references.
    """
    t = STRINGS[lang]
    record = fresh.record
    assets = figure_assets(record)
    stored = {c.index: c for c in record.cells} if record else {}
    blocks = [f'<div class="pn-example" id="example-{example.rel[:-3].replace("/", "-")}"></div>']
    if fresh.failure:
        f = fresh.failure
        blocks.append(_admonition("failure", t["failed_title"], f"{t['failed']} `{f.location}: {f.message}`"))
    if fresh.state == "missing":
        blocks.append(_admonition("warning", t["missing_title"],
                                  t["missing_cuda"] if example.needs_cuda else t["missing"]))
    elif fresh.state == "stale":
        blocks.append(_admonition("warning", t["stale_title"], t["stale"]))
    used: list[Asset] = []
    for cell in example.cells:
        blocks.append(_fence(cell.source, cell.line, example.rel if cell.index == 0 else None))
        old = stored.get(cell.index)
        if old is None or (fresh.state != "fresh" and old.key != cell.key):
            continue
        for pos, out in enumerate(old.outputs):
            asset = assets.get((cell.index, pos))
            if asset:
                used.append(asset)
            rendered = render_output(out, asset, t, url_for)
            if rendered:
                blocks.append(rendered)
    foot = [provenance_html(record, t)] if record else []
    foot.append(f'<a href="{html.escape(links.py)}" download>{t["download_py"]}</a>')
    if record and links.ipynb:
        foot.append(f'<a href="{html.escape(links.ipynb)}" download>{t["download_ipynb"]}</a>')
    if record and links.notebook:
        foot.append(f'<a href="{html.escape(links.notebook)}">{t["notebook"]}</a>')
    blocks.append('<p class="pn-provenance">' + ' <span class="pn-sep">·</span> '.join(foot) + "</p>")
    return "\n\n".join(blocks) + "\n", used
