"""Build an executed Jupyter notebook (nbformat 4.5 JSON) from a stored record, and the ``.py`` download.

Nothing is executed: the notebook holds the code that ran and the outputs it produced,
taken from the output store. The first cell is a Markdown header in the reader's
language: the title (chapter · example), where the outputs were captured, and an
absolute link to the chapter, so that the file works once downloaded (Jupyter, Colab).
The ``.py`` download (``download.py``) is the example with a comment footer saying the same. Both show the
example's comments in the reader's language (``comments.localize``). Standard library only;
the tests validate the result with ``nbformat``.

A record file is untrusted: its provenance goes through ``escape.page_provenance`` (one line each, no
control characters) and, in the Markdown header, ``escape.markdown_text``; its outputs through the
registry (``kinds.py``, control characters removed, ``text/html`` sanitised); its example path through
``escape.safe_rel`` (it is written into inline code and a comment line); the code of a changed cell and
its metadata are cleaned too. A device name can neither add HTML to the header, nor a line of code
to the ``.py`` download.
Format reference: https://nbformat.readthedocs.io/en/latest/format_description.html
"""

from __future__ import annotations

import json

from pytorch_notes.characters import python_lines
from pytorch_notes.comments import localize
from pytorch_notes.parse import Example
from pytorch_notes.render import download
from pytorch_notes.render.escape import field, markdown_text, page_provenance, safe_rel
from pytorch_notes.render.kinds import Context, kind_of
from pytorch_notes.render.strings import STRINGS
from pytorch_notes.store.model import Record, to_dict
from pytorch_notes.store.untrusted import page_text


def _lines(text: str) -> list[str]:
    """``text`` as nbformat's list of lines, ended where Python ends them (``characters.python_lines``)."""
    return python_lines(text, keepends=True)


def _outputs(cell, count: int) -> list[dict]:
    """A cell's outputs in nbformat, each by its kind's entry in the registry (``render/kinds.py``)."""
    ctx = Context(STRINGS["en"], execution_count=count)
    return [kind_of(out).nbformat(out, ctx) for out in cell.outputs]


def provenance_text(record: Record) -> str:
    """Plain-text provenance, e.g. ``CPU · torch 2.13.0+cpu · Python 3.11.7 · 2026-11-22``: one line,
    each field cleaned (``escape.page_provenance``); not yet safe for Markdown (``escape.markdown_text``)."""
    p = page_provenance(record.provenance)
    parts = [p.device, f"torch {p.torch}"]
    if p.cuda:
        parts.append(f"CUDA {p.cuda}")
    parts += [f"Python {p.python}", p.captured_at[:10]]
    return " · ".join(parts)


def notebook_title(chapter: str, rel: str) -> str:
    """The title of an example's notebook: its chapter and file name, e.g. ``自动求导 · backward.py``."""
    name = rel.rsplit("/", 1)[-1]
    return f"{chapter} · {name}" if chapter else name


def _is_absolute(url: str) -> bool:
    return url.startswith(("http://", "https://"))


def build_notebook(record: Record, lang: str, chapter: str, chapter_url: str,
                   example: Example | None = None) -> dict:
    """The notebook of one stored record.

    Args:
        record: a store record (``store.build_record``).
        lang: ``"zh"`` or ``"en"``; selects the header text and the language of the code's comments.
        chapter: title of the chapter page that embeds the example.
        chapter_url: absolute URL (``http(s)://``) of that page, built from ``site_url``; empty, or
            anything else, for no link: a relative link breaks once the file is downloaded.
        example: the example as it is now (the site always passes it): the notebook's code is the
            example's own, comments in ``lang``, and a cell shows the stored outputs only when its code is
            unchanged since the capture (same key), as on the page. A record's copy of the source is
            never shown then: a record file is untrusted, and a notebook is code a reader runs. Without
            ``example`` (tests), the record's cells are shown, cleaned.

    Returns:
        The notebook as a JSON-ready dict (nbformat 4.5).
    """
    rel = example.rel if example is not None else safe_rel(record.example)
    t = STRINGS[lang]
    parts = [f"# {notebook_title(chapter, rel)}", t["nb_intro"].format(rel=rel),
             t["nb_captured"].format(facts=markdown_text(provenance_text(record)))]
    if chapter and _is_absolute(chapter_url):
        parts.append(t["nb_explained"].format(chapter=chapter, chapter_url=chapter_url))
    header = "\n\n".join(parts)
    cells = [{"cell_type": "markdown", "id": "header", "metadata": {}, "source": _lines(header)}]
    cells += _code_cells(record, lang, example, "cell", 1)
    return _notebook(cells, record)


def _code_cells(record: Record, lang: str, example: Example | None, prefix: str, first: int) -> list[dict]:
    """The code cells of ``example`` (or, without it, of the record, cleaned) with the stored outputs
    of the cells whose code is unchanged since the capture; numbered from ``first``, ids ``<prefix>-<n>``."""
    if example is not None:
        stored = {c.index: c for c in record.cells}
        shown = [(c.source, c.metadata, stored[c.index] if c.index in stored and stored[c.index].key == c.key
                  else None) for c in example.cells]
    else:
        shown = [(page_text(c.source), c.metadata, c) for c in record.cells]
    cells = []
    for n, (source, metadata, ran) in enumerate(shown, start=first):
        meta = {}
        if metadata.get("raises"):
            meta["tags"] = ["raises-exception"]  # Jupyter's "run all" goes on past this cell's error
        cells.append({"cell_type": "code", "id": f"{prefix}-{n}", "execution_count": n, "metadata": meta,
                      "source": _lines(localize(source, lang)), "outputs": _outputs(ran, n) if ran else []})
    return cells


def _notebook(cells: list[dict], record: Record, sections: list[dict] | None = None) -> dict:
    provenance = page_provenance(record.provenance)
    meta = {"provenance": to_dict(provenance), "source_sha256": field(record.source_sha256)}
    if sections is not None:
        meta = {"sections": sections}
    return {
        "nbformat": 4, "nbformat_minor": 5, "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python", "version": provenance.python},
            "pytorch_notes": meta,
        },
    }


def chapter_notebook_title(chapter: str, lang: str) -> str:
    """The title of a chapter's notebook, e.g. ``自动求导 · 笔记本``."""
    return STRINGS[lang]["nb_chapter_title"].format(chapter=chapter)


def build_chapter_notebook(lang: str, chapter: str, chapter_url: str,
                           sections: list[tuple[Record, Example, str]]) -> dict:
    """The notebook of a chapter: a header cell (title, what it holds, the chapter's absolute URL), then
    one section per example in page order: a Markdown cell ``## <heading>`` saying where its outputs
    were captured, and its code cells (``build_notebook``'s, numbered on through the notebook).

    Args:
        lang, chapter, chapter_url: as for ``build_notebook``.
        sections: (record, example, heading) of each example, in page order (``urls.section_headings``).
    """
    t = STRINGS[lang]
    parts = [f"# {chapter_notebook_title(chapter, lang)}",
             t["nb_chapter_intro"].format(chapter=chapter, n=len(sections))]
    if chapter and _is_absolute(chapter_url):
        parts.append(t["nb_explained"].format(chapter=chapter, chapter_url=chapter_url))
    cells = [{"cell_type": "markdown", "id": "header", "metadata": {}, "source": _lines("\n\n".join(parts))}]
    listed, count = [], 1
    for i, (record, example, heading) in enumerate(sections, start=1):
        text = f"## {heading}\n\n" + t["nb_section"].format(
            rel=example.rel, facts=markdown_text(provenance_text(record)))
        cells.append({"cell_type": "markdown", "id": f"section-{i}", "metadata": {}, "source": _lines(text)})
        code = _code_cells(record, lang, example, f"s{i}", count)
        count += len(code)
        cells += code
        listed.append({"example": example.rel, "heading": heading,
                       "provenance": to_dict(page_provenance(record.provenance))})
    return _notebook(cells, sections[0][0], listed)


def py_download(source: str, record: Record | None, chapter_urls: list[str], lang: str | None = None) -> str:
    """The ``.py`` download of an example (``render/download.py``): the example, its ``raises=`` cells
    wrapped so that it runs to its end, line for line as on the page, then a comment footer naming the
    example, where the stored outputs were captured and the chapters (absolute URLs) that explain it."""
    facts = provenance_text(record) if record is not None else "–"
    return download.py_download(source, record, chapter_urls, lang, facts)


def dumps(notebook: dict) -> str:
    """Serialise deterministically (same record, same bytes)."""
    return json.dumps(notebook, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
