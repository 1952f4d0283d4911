"""The computation-times page (issue 30, item 1): every example's run time per device, from the records.

The table builder (``render/times.py``) is checked on made-up records in a fixture tree; the real site
(the ``site`` fixture, built once per run) is checked against the committed records, read here with
``load_record`` and formatted independently of the page's code.
"""

from __future__ import annotations

import html
import math
import posixpath
import re
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
from conftest import checkout
from pytorch_notes.parse import discover_examples, parse_example
from pytorch_notes.render.html import verification_line
from pytorch_notes.render.times import MARKER, ChapterTimes, example_row, times_markdown
from pytorch_notes.settings import EXAMPLES_DIR, LANGUAGES
from pytorch_notes.site import times as site_times
from pytorch_notes.store import model
from pytorch_notes.store.records import device_kinds, freshness, load_record
from test_store import fake_record, put

SOURCE = "# %%\nimport torch\n\n# %%\nx = 1\n\n# %%\nprint(x)\n"
GPU_ONLY = "# /// example\n# requires = [\"cuda\"]\n# ///\n# %%\nimport torch\n"


def record(ex, kind: str, cells: list[float], total: float, **prov) -> dict:
    data = fake_record(ex, kind)
    for cell, took in zip(data["cells"], cells, strict=True):
        cell["duration_s"] = took
    data["provenance"].update(duration_s=total, **prov)
    return data


def rows_of(markdown: str) -> dict[str, list[str]]:
    """example id -> the text of each cell of its row (tags removed, entities decoded)."""
    out = {}
    for rel, row in re.findall(r'<tr data-example="([^"]+)">(.*?)</tr>', markdown):
        out[html.unescape(rel)] = [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
    return out


def text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup)).strip()


def headers(markdown: str) -> list[list[str]]:
    return [[text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head)]
            for head in re.findall(r"<thead>(.*?)</thead>", markdown)]


def footers(markdown: str) -> list[list[str]]:
    return [[text(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", foot)]
            for foot in re.findall(r"<tfoot>(.*?)</tfoot>", markdown)]


def chapter(examples_dir, *rels: str, title: str = "Chapter") -> ChapterTimes:
    rows = []
    for rel in rels:
        ex = parse_example(examples_dir / rel, examples_dir)
        rows.append(example_row(ex, freshness(ex, examples_dir), "en", f"ch.md#example-{rel[:-3]}"))
    return ChapterTimes("ch", title, "ch.md", rows)


# --- the table builder, on made-up records ----------------------------------------------------------

def test_each_device_gets_its_total_and_slowest_cell_and_the_speed_up(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, record(ex, "cpu", [0.5, 2.0, 0.25], 2.8), "cpu")
    put(examples_dir, record(ex, "cuda", [0.2, 0.1, 0.3], 0.7), "cuda")
    md = times_markdown([chapter(examples_dir, "ch/ex.py")], "en")
    assert headers(md)[1] == ["Example", "CPU total", "CPU slowest cell", "CUDA total", "CUDA slowest cell",
                              "Speed-up"]
    assert rows_of(md)["ch/ex.py"] == ["ex.py", "2.80 s", "2.00 s · cell 2", "0.70 s", "0.30 s · cell 3", "4.0×"]
    assert footers(md)[1] == ["Chapter total", "2.80 s", "", "0.70 s", "", "4.0×"]
    assert '<a href="ch.md#example-ch/ex">' in md
    zh = times_markdown([chapter(examples_dir, "ch/ex.py")], "zh")
    assert "2.00 s · 第 2 个单元格" in rows_of(zh)["ch/ex.py"]


def test_cpu_only_records_show_no_cuda_columns(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, record(ex, "cpu", [0.5, 2.0, 0.25], 2.8), "cpu")
    md = times_markdown([chapter(examples_dir, "ch/ex.py")], "en")
    assert headers(md)[1] == ["Example", "CPU total", "CPU slowest cell"]
    assert "CUDA" not in md and "Speed-up" not in md


def test_a_stale_record_is_marked_and_counts_in_no_total_or_speed_up(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    other = parse_example(write_example("ch/other.py", SOURCE), examples_dir)
    put(examples_dir, record(ex, "cpu", [0.5, 2.0, 0.25], 2.8), "cpu")
    stale = record(ex, "cuda", [0.2, 0.1, 0.3], 0.7)
    stale["key"] = "0" * len(stale["key"])  # captured from an older version of the example
    put(examples_dir, stale, "cuda")
    put(examples_dir, record(other, "cpu", [1.0, 1.0, 1.0], 3.0), "cpu")
    put(examples_dir, record(other, "cuda", [0.1, 0.1, 0.1], 0.3), "cuda")
    md = times_markdown([chapter(examples_dir, "ch/ex.py", "ch/other.py")], "en")
    row = rows_of(md)["ch/ex.py"]
    assert row[3] == "0.70 s (out of date)" and row[4] == "0.30 s · cell 3 (out of date)"
    assert row[5] == "—", "no speed-up against a stale record"
    assert rows_of(times_markdown([chapter(examples_dir, "ch/ex.py")], "zh"))["ch/ex.py"][3] == "0.70 s（已过期）"
    assert rows_of(md)["ch/other.py"][5] == "10.0×"
    # the chapter: CPU 2.8 + 3.0; CUDA only the fresh 0.3, one of two; speed-up over the fresh pair only
    assert footers(md)[1] == ["Chapter total", "5.80 s", "", "0.30 s (1 of 2 examples)", "", "10.0×"]
    assert footers(md)[0] == ["All chapters", "2", "5.80 s", "0.30 s (1 of 2 examples)", "10.0×"]


def test_a_gpu_only_example_has_no_cpu_time_and_a_missing_record_no_number(write_example, examples_dir):
    gpu = parse_example(write_example("ch/gpu.py", GPU_ONLY), examples_dir)
    write_example("ch/never.py", SOURCE)
    put(examples_dir, record(gpu, "cuda", [0.4], 0.4), "cuda")
    md = times_markdown([chapter(examples_dir, "ch/gpu.py", "ch/never.py")], "en")
    assert rows_of(md)["ch/gpu.py"] == ["gpu.py", "—", "—", "0.40 s", "0.40 s · cell 1", "—"]
    assert rows_of(md)["ch/never.py"] == ["never.py", "—", "—", "—", "—", "—"]
    assert 'title="This example runs on a GPU only"' in md and 'title="No record on this device"' in md
    assert footers(md)[1][1] == "— (0 of 1 examples)", "the GPU-only example is not one the CPU should have run"


def test_each_device_column_says_when_and_on_which_machine(write_example, examples_dir):
    a = parse_example(write_example("ch/a.py", SOURCE), examples_dir)
    b = parse_example(write_example("ch/b.py", SOURCE), examples_dir)
    put(examples_dir, record(a, "cpu", [1, 1, 1], 3, captured_at="2026-11-20T01:00:00Z"), "cpu")
    put(examples_dir, record(b, "cpu", [1, 1, 1], 3, captured_at="2026-11-23T01:00:00Z",
                             isolation="bwrap 0.8.0"), "cpu")
    put(examples_dir, record(a, "cuda", [1, 1, 1], 3, isolation="supervised"), "cuda")
    md = times_markdown([chapter(examples_dir, "ch/a.py", "ch/b.py")], "en")
    line = text(re.findall(r'<p class="pn-times__devices">(.*?)</p>', md)[1])
    assert line == ("CPU: 2 records captured 2026-11-20 to 2026-11-23, on CPU · torch 2.13.0+cpu · isolation "
                    "bwrap 0.8.0, CPU · torch 2.13.0+cpu · isolation not recorded; "
                    "CUDA: 1 record captured 2026-11-23, on NVIDIA H100 · CUDA 13.0 · torch 2.11.0+cu130 · "
                    "isolation supervised")


def test_record_text_is_escaped_and_kept_on_one_line(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    hostile = '<script>alert(1)</script>\n<img src=x onerror=alert(2)>"'
    put(examples_dir, record(ex, "cpu", [1, 1, 1], 3, torch=hostile, isolation=hostile), "cpu")
    put(examples_dir, record(ex, "cuda", [1, 1, 1], 3, device=hostile), "cuda")
    md = times_markdown([chapter(examples_dir, "ch/ex.py")], "en")
    assert "<script" not in md and "<img" not in md and "&lt;script&gt;alert(1)" in md
    for line in md.splitlines():
        if line.startswith("<"):
            assert line.endswith(">"), f"a raw HTML block broken over lines: {line[:80]}"


def test_chapters_get_the_anchor_their_verification_line_links_to(write_example, examples_dir):
    ex = parse_example(write_example("ch/ex.py", SOURCE), examples_dir)
    put(examples_dir, record(ex, "cpu", [1, 1, 1], 3), "cpu")
    md = times_markdown([chapter(examples_dir, "ch/ex.py", title="A: chapter")], "en")
    assert "## A&#58; chapter {#chapter-ch data-search-exclude}" in md  # the id the verification line links to
    assert "[Go to the chapter](ch.md)" in md
    cpu = model.load(model.Record, fake_record(ex, "cpu"))
    line = verification_line([cpu], "en", '../times/#chapter-ch"><b>')
    assert line.endswith(' <a href="../times/#chapter-ch&quot;&gt;&lt;b&gt;">Run times of each example</a></p>')
    assert "times" not in verification_line([cpu], "zh")


def test_the_marker_is_replaced_outside_code_blocks_only(monkeypatch):
    monkeypatch.setattr(site_times, "chapters", lambda *a: [])
    page = SimpleNamespace(file=SimpleNamespace(src_uri="en/times.md", url="en/times/"), meta={})
    md = f"# T\n\n{MARKER}\n\n```markdown\n{MARKER}\n```\n\n{MARKER}\n"
    course = SimpleNamespace(lang="en")  # what the tables list: ``chapters``, replaced above
    out = site_times.TimesPage(checkout()).fill_page(md, page, None, course)
    assert out.count(MARKER) == 1 and out.index("```") < out.index(MARKER) < out.rindex("```")
    assert out.count('<div class="pn-times"') == 2 and '<div class="pn-times"' in out.split("```")[0]
    assert page.meta == {"pn_sortable": True}, "the page with the tables loads the sorting scripts"
    other = SimpleNamespace(file=page.file, meta={})
    assert site_times.TimesPage(checkout()).fill_page("# T\n\ntext\n", other, None, course) == "# T\n\ntext\n"
    assert other.meta == {}, "a page without the tables does not"


def test_the_tables_are_made_again_only_when_their_rows_change(monkeypatch):
    """A rebuild under ``make serve`` that redoes the times page with the same rows reuses its tables."""
    made = []
    monkeypatch.setattr(site_times, "times_markdown", lambda found, lang, tpl: made.append(found) or f"{found}")
    rows = [ChapterTimes("ch", "Ch", "ch.md")]
    monkeypatch.setattr(site_times, "chapters", lambda *a: list(rows))
    times_page = site_times.TimesPage(checkout())
    page = SimpleNamespace(file=SimpleNamespace(src_uri="en/times.md", url="en/times/"), meta={})

    def fill(lang: str = "en") -> str:
        return times_page.fill_page(f"# T\n\n{MARKER}\n", page, None, SimpleNamespace(lang=lang))

    first = fill()
    assert fill() == first and len(made) == 1
    fill("zh")
    assert len(made) == 2, "each language its own tables"
    rows.append(ChapterTimes("other", "Other", "other.md"))
    assert fill() != first and len(made) == 3, "changed rows: made again"


def test_make_serve_redoes_the_times_page_when_an_example_or_record_changed(tmp_path, monkeypatch):
    from pytorch_notes.site.incremental import Plan, Serve
    html_file = tmp_path / "times.html"
    files = SimpleNamespace(documentation_pages=lambda: [SimpleNamespace(src_uri="en/times.md",
                                                                         abs_dest_path=str(html_file))])
    serve = Serve(dirty=True)
    times_page = site_times.TimesPage(checkout())
    monkeypatch.setattr(site_times, "chapters", lambda *a: [])  # the tables' rows: not what is checked here
    page = SimpleNamespace(file=SimpleNamespace(src_uri="en/times.md", url="en/times/"), meta={})
    times_page.fill_page(f"# T\n\n{MARKER}\n", page, None, SimpleNamespace(lang="en"))  # filled now: as the pages are
    for pages, redone in [({"/r/docs/zh/tensors.md", "/r/docs/en/tensors.md"}, False),  # prose: left alone
                          ({"/r/.cache/pytorch-notes/notebooks/zh/ch.ipynb", "/r/docs/zh/ch.md"}, True)]:  # a record
        # changed: the pages embedding it and their chapter notebooks
        html_file.write_text("x", encoding="utf-8")
        serve.plan = Plan(False, "test", pages)
        times_page.rebuild_when_served(files, serve)
        assert (html_file.stat().st_mtime == 0) == redone, pages
    times_page.filled_with = ()  # a page embedded other examples then
    html_file.write_text("x", encoding="utf-8")
    serve.plan = Plan(False, "test", {"/r/docs/zh/tensors.md"})
    times_page.rebuild_when_served(files, serve)
    assert html_file.stat().st_mtime == 0


# --- the real site ------------------------------------------------------------------------------------

def lang_dir(lang: str) -> str:
    return "" if lang == LANGUAGES[0] else f"{lang}/"


def sections(page: str) -> dict[str, str]:
    """The HTML of each chapter's section of the times page, by chapter."""
    parts = re.split(r'<h2[^>]* id="chapter-([^"]+)"', page)
    return {name: body.split("<h2", 1)[0] for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def seconds(x: float) -> str:
    return f"{x:.2f} s"


@pytest.mark.xdist_group("site")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_number_on_the_times_page_is_what_the_records_say(site, lang):
    page = (site / lang_dir(lang) / "times/index.html").read_text(encoding="utf-8")
    rows = rows_of(page)
    examples = [parse_example(p) for p in discover_examples(EXAMPLES_DIR)]
    assert sorted(rows) == sorted(e.rel for e in examples), "every example, once each"
    cell = "cell {n}" if lang == "en" else "第 {n} 个单元格"
    kinds = ["cpu", "cuda"] if any(load_record(e.rel, "cuda") for e in examples) else ["cpu"]
    counted: dict[str, dict[str, list[float]]] = {}
    for ex in examples:
        row = rows[ex.rel]
        for i, kind in enumerate(kinds):
            rec = load_record(ex.rel, kind)
            total, slowest = row[1 + 2 * i], row[2 + 2 * i]
            if rec is None:
                assert (total, slowest) == ("—", "—"), ex.rel
                continue
            took = max(rec.cells, key=lambda c: c.duration_s)
            stale = "" if rec.key == ex.key else (" (out of date)" if lang == "en" else "（已过期）")
            assert total == seconds(rec.provenance.duration_s) + stale, (ex.rel, kind)
            assert slowest == f"{seconds(took.duration_s)} · {cell.format(n=took.index + 1)}{stale}", (ex.rel, kind)
            if not stale:
                counted.setdefault(ex.rel.split("/")[0], {}).setdefault(kind, []).append(rec.provenance.duration_s)
    could = {}  # chapter -> kind -> how many of its examples can have a record of that kind
    for ex in examples:
        for kind in device_kinds(ex):
            could.setdefault(ex.rel.split("/")[0], {}).setdefault(kind, 0)
            could[ex.rel.split("/")[0]][kind] += 1
    for name, body in sections(page).items():
        foot = footers(body)[0]
        for i, kind in enumerate(kinds):
            if kind not in counted[name]:
                # a chapter of CUDA-only examples has no CPU records ("—"); a chapter none of whose examples has
                # been captured on this kind yet says how many it counted: "— (0 of 9 examples)"
                m = could.get(name, {}).get(kind, 0)
                none = f"— (0 of {m} examples)" if lang == "en" else f"—（计入 0/{m} 个示例）"
                assert foot[1 + 2 * i] == (none if m else "—"), (name, kind, foot)
                continue
            assert foot[1 + 2 * i].startswith(seconds(math.fsum(counted[name][kind]))), (name, kind, foot)
    whole = footers(page.split('id="chapter-', 1)[0])[0]
    assert whole[1] == str(len(examples))
    assert whole[2].startswith(seconds(math.fsum(x for c in counted.values() for x in c.get("cpu", []))))


def resolve(page: Path, href: str) -> tuple[Path, str]:
    """The file a relative link of ``page`` opens (a folder's index.html), and its fragment."""
    url = urlsplit(href)
    assert not url.scheme and not url.netloc and not href.startswith("/"), f"not relative: {href}"
    target = Path(posixpath.normpath(posixpath.join(page.parent.as_posix(), url.path))) if url.path else page
    return (target / "index.html" if url.path.endswith("/") or target.is_dir() else target), url.fragment


@pytest.mark.xdist_group("site")
def test_each_chapters_verification_line_links_to_its_rows(site):
    checked = 0
    for lang in LANGUAGES:
        for page in sorted((site / lang_dir(lang)).glob("*/index.html")):
            line = re.search(r'<p class="pn-verified">(.*?)</p>', page.read_text(encoding="utf-8"))
            if not line:
                continue
            href = re.search(r'<a href="([^"]+)">', line.group(1)).group(1)
            target, fragment = resolve(page, html.unescape(href))
            assert target == site / lang_dir(lang) / "times/index.html", (page, href)
            assert fragment == f"chapter-{page.parent.name}", (page, href)
            assert re.search(rf'<h2[^>]* id="{fragment}"', target.read_text(encoding="utf-8")), (page, href)
            checked += 1
    assert checked >= 2 * 20, checked


@pytest.mark.xdist_group("site")
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_times_page_links_each_example_and_loads_nothing_from_elsewhere(site, lang):
    page = site / lang_dir(lang) / "times/index.html"
    text_ = page.read_text(encoding="utf-8")
    for href in set(re.findall(r'<tr data-example="[^"]+"><td[^>]*><a href="([^"]+)"', text_)):
        target, fragment = resolve(page, html.unescape(href))
        assert f'id="{fragment}"' in target.read_text(encoding="utf-8"), href
    scripts = re.findall(r"<script\b[^>]*\bsrc=\"([^\"]+)\"", text_)
    assert not [s for s in scripts if urlsplit(s).netloc or s.startswith("//")], scripts
    for name in ("tablesort.min.js", "tablesort.number.min.js", "init.js"):
        src = next(s for s in scripts if s.endswith(f"assets/tablesort/{name}"))
        assert resolve(page, src)[0].is_file(), src
    assert (site / "assets/tablesort/LICENSE").is_file()
    assert text_.count('<div class="pn-times"') == 1 + len(sections(text_)), "a sortable table per chapter"


@pytest.mark.xdist_group("site")
def test_only_the_times_pages_load_tablesort(site):
    """The sorting scripts load on the page whose tables they sort, not on every page (issue 44, item 10)."""
    loading = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")
                     if "assets/tablesort/" in p.read_text(encoding="utf-8"))
    assert loading == ["en/times/index.html", "times/index.html"], loading
