"""Stage 4, render: the lines around an example's outputs, from its records' provenance.

A device tab's name (``device_label``); under each record the provenance line and the links, among them a
problem report pre-filled in the page's language (``footer``, ``report_url``); under the tabs, the example's
run time on each device (``comparison``); under a chapter's title, where and when its examples last ran
(``verification_line``). Every field of a record goes through ``escape.py`` (a record file is untrusted);
the templates escape it where it becomes HTML. No MkDocs import.
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass

from pytorch_notes.parse import Example
from pytorch_notes.render.escape import field, page_provenance
from pytorch_notes.render.strings import STRINGS, plural
from pytorch_notes.render.templating import PACKAGE, Templates
from pytorch_notes.store.model import Record
from pytorch_notes.store.records import DeviceOutputs

# Below this many seconds on either device, an example's run time is mostly starting Python, importing torch
# and initialising the device (~2-8 s; CUDA records were also captured up to 10 at a time): a ratio of two
# such times says nothing about the devices, and the comparison line says so instead of showing one.
RATIO_MIN_S = 60.0


def _provenance_parts(record: Record) -> list[str]:
    p = page_provenance(record.provenance)
    parts = [p.device]
    if p.torch:
        parts.append(f"torch {p.torch}")
    if p.cuda:
        parts.append(f"CUDA {p.cuda}")
    if p.driver:
        parts.append(f"driver {p.driver}")
    return [*parts, f"Python {p.python}", p.captured_at[:10], f"{p.duration_s:.1f} s"]


def provenance(record: Record, t: dict) -> dict[str, str]:
    """The provenance line's facts, e.g. ``CPU · torch 2.13.0+cpu · Python 3.11.7 · 2026-11-22 · 1.4 s``, and
    its tooltip: the time, the platform, the source's hash and, when the record says, how the run was isolated."""
    p = page_provenance(record.provenance)
    tip = t["provenance_help"].format(when=p.captured_at, platform=p.platform, sha=field(record.source_sha256[:12]))
    if p.isolation:
        tip += t["provenance_isolation"].format(isolation=p.isolation)
    return {"facts": " · ".join(_provenance_parts(record)), "tip": tip}


@dataclass(frozen=True)
class Links:
    """URLs of an example's downloads and notebook page (relative to the page), and the new-issue URL
    of the repository (``issues/new`` of ``repo_url``, without a query); empty to omit."""

    py: str
    ipynb: str = ""
    notebook: str = ""
    new_issue: str = ""
    page_url: str = ""  # the page's address, for the issue's body
    colab: str = ""
    kaggle: str = ""


def report_url(links: Links, example: Example, record: Record | None, lang: str) -> str:
    """A link that opens a new issue pre-filled, in the page's language, with the page, the language, the
    example and its provenance, and a heading for what is wrong (``report_body`` of ``render/strings.py``)."""
    t = STRINGS[lang]
    facts = " · ".join(_provenance_parts(record)) if record else t["report_no_outputs"]
    title = f"examples/{example.rel}: "  # the example on disk, not the record's name for it
    body = t["report_body"].format(page=links.page_url, lang=lang, example=f"examples/{example.rel}", facts=facts)
    return f"{links.new_issue}?{urllib.parse.urlencode({'title': title, 'body': body})}"


def device_label(record: Record) -> str:
    """A tab's name for a record's device: ``"CPU"``, or e.g. ``"NVIDIA H100 · CUDA 13.0"`` (the GPU's
    name without its memory size, which ``torch.cuda.get_device_name`` appends, and the CUDA version)."""
    p = page_provenance(record.provenance)
    if p.device_kind == "cpu":
        return "CPU"
    name = re.sub(r"\s+\d+\s*GB\b.*$", "", p.device).strip() or p.device
    return f"{name} · CUDA {p.cuda}" if p.cuda else name


def footer(tpl: Templates, example: Example, record: Record | None, lang: str, links: Links) -> str:
    """The provenance line and the links under an example (``templates/example/footer.html``)."""
    t, report = STRINGS[lang], report_url(links, example, record, lang) if links.new_issue else ""
    shown = [(links.py, "download_py", "download"), (record and links.ipynb, "download_ipynb", "download"),
             (record and links.notebook, "notebook", ""), (record and links.colab, "open_colab", "new_tab"),
             (record and links.kaggle, "open_kaggle", "new_tab"), (report, "report", "report")]
    anchors = [{"href": href, "text": t[text], "download": how == "download", "report": how == "report",
                "new_tab": how in ("new_tab", "report")} for href, text, how in shown if href]
    return tpl.render("example/footer.html", t=t, provenance=provenance(record, t) if record else None, links=anchors)


def comparison(tpl: Templates, shown: list[DeviceOutputs], t: dict) -> str:
    """The line under an example's device tabs: each fresh record's total run time, then either how many times
    as long the slower took, when both ran at least ``RATIO_MIN_S``, or that start-up is most of the time."""
    timed = [(device_label(d.record), d.record.provenance.duration_s) for d in shown if d.state == "fresh"]
    parts = " · ".join(f"{name} {sec:.2f} s" for name, sec in timed)
    line = t["compare"].format(parts=parts)
    if len(timed) >= 2 and min(s for _, s in timed) >= RATIO_MIN_S:
        (fast, f_s), (slow, s_s) = min(timed, key=lambda x: x[1]), max(timed, key=lambda x: x[1])
        line += t["compare_ratio"].format(slow=slow, fast=fast, ratio=s_s / f_s)
    elif len(timed) >= 2:
        line += t["compare_startup"]
    return tpl.render("example/compare.html", line=line)


def verification_line(records: list[Record], lang: str, times_url: str = "", tpl: Templates = PACKAGE) -> str:
    """One line saying where and when a page's examples last ran, from their shown records: the newest
    capture date, and each device with the torch versions its records were captured with. How those versions
    compare with the one the project pins is bookkeeping, for the computation-times page (``render/times.py``).

    Args:
        records: the record each embed of the page shows (``Freshness.record``), one per example.
        lang: ``"zh"`` or ``"en"``.
        times_url: the chapter's rows on the computation-times page (``site/times.py``), relative to
            the page; the line ends with a link to them. "" for none.
        tpl: the site's templates (``templating.Templates``).

    Returns:
        An HTML paragraph, or "" when ``records`` is empty.
    """
    if not records:
        return ""
    t = STRINGS[lang]
    when = max(field(r.provenance.captured_at) for r in records)[:10]
    kinds: dict[str, set[str]] = {}
    for r in records:
        kinds.setdefault(device_label(r), set()).add(field(r.provenance.torch or "?"))
    devices = t["sep_clause"].join(t["verified_device"].format(name=name, versions=t["sep_list"].join(sorted(v)))
                                   for name, v in sorted(kinds.items()))
    text = plural(t, "verified", len(records)).format(n=len(records), when=when, devices=devices)
    return tpl.render("example/verified.html", t=t, text=text, times_url=times_url)
