"""Build an executed Jupyter notebook (nbformat 4.5 JSON) from a stored record.

Nothing is executed: the notebook holds the code that ran and the outputs it produced,
taken from the output store. The first cell is a Markdown header in the reader's
language (title, provenance, link back to the chapter). Standard library only; the
tests validate the result with ``nbformat``.
Format reference: https://nbformat.readthedocs.io/en/latest/format_description.html
"""

from __future__ import annotations

import json

from pytorch_notes.store.model import Display, Error, Image, Record, Stream, to_dict

HEADER = {
    "zh": "这是示例 `examples/{rel}` 运行后的笔记本，输出捕获于 {facts}。正文讲解见 [{chapter}]({chapter_url})。",
    "en": "The executed notebook of the example `examples/{rel}`, captured on {facts}. "
          "It is explained in [{chapter}]({chapter_url}).",
}


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _outputs(cell, count: int) -> list[dict]:
    outs = []
    for out in cell.outputs:
        if isinstance(out, Stream):
            outs.append({"output_type": "stream", "name": out.name, "text": _lines(out.text)})
        elif isinstance(out, Display):
            data = {k: _lines(v) for k, v in out.data.items() if k == "text/plain"}
            outs.append({"output_type": "execute_result", "execution_count": count, "data": data, "metadata": {}})
        elif isinstance(out, Image):
            outs.append({"output_type": "display_data", "data": {"image/png": out.data}, "metadata": {}})
        elif isinstance(out, Error):
            outs.append({"output_type": "error", "ename": out.ename, "evalue": out.evalue,
                         "traceback": out.traceback.splitlines() or [f"{out.ename}: {out.evalue}"]})
    return outs


def provenance_text(record: Record) -> str:
    """Plain-text provenance, e.g. ``CPU · torch 2.13.0+cpu · Python 3.11.7 · 2026-11-22``."""
    p = record.provenance
    parts = [p.device, f"torch {p.torch}"]
    if p.cuda:
        parts.append(f"CUDA {p.cuda}")
    parts += [f"Python {p.python}", p.captured_at[:10]]
    return " · ".join(parts)


def build_notebook(record: Record, lang: str, chapter: str, chapter_url: str) -> dict:
    """The notebook of one stored record.

    Args:
        record: a store record (``store.build_record``).
        lang: ``"zh"`` or ``"en"``; selects the header text.
        chapter: title of the chapter page that embeds the example.
        chapter_url: URL of that page relative to the notebook page.

    Returns:
        The notebook as a JSON-ready dict (nbformat 4.5).
    """
    rel = record.example
    header = f"# {rel}\n\n" + HEADER[lang].format(rel=rel, facts=provenance_text(record),
                                                  chapter=chapter, chapter_url=chapter_url)
    cells = [{"cell_type": "markdown", "id": "header", "metadata": {}, "source": _lines(header)}]
    for n, cell in enumerate(record.cells, start=1):
        meta = {}
        if cell.metadata.get("raises"):
            meta["tags"] = ["raises-exception"]
        cells.append({"cell_type": "code", "id": f"cell-{n}", "execution_count": n, "metadata": meta,
                      "source": _lines(cell.source), "outputs": _outputs(cell, n)})
    return {
        "nbformat": 4, "nbformat_minor": 5, "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python", "version": record.provenance.python},
            "pytorch_notes": {"provenance": to_dict(record.provenance), "source_sha256": record.source_sha256},
        },
    }


def dumps(notebook: dict) -> str:
    """Serialise deterministically (same record, same bytes)."""
    return json.dumps(notebook, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
