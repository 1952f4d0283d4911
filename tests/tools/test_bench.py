"""The pure parts of the benchmark (scripts/benchmarks/): figures and the table, page weight, content replication.

The benchmark itself (`make bench`) is not run here: it takes minutes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks.build import flatten_nav, replicate
from benchmarks.capture import overhead_subset
from benchmarks.chromium import find_chromium
from benchmarks.figures import Figure, format_table, ratio
from benchmarks.loop import (
    append_marker_comment,
    append_marker_sentence,
    example_urls,
    marker,
    plain_overrides,
    strip_embeds,
)
from benchmarks.repo import BenchError, bench_env
from benchmarks.serving import build_pending, clean_make_env, poll_until, serve_script
from benchmarks.weight import page_weights
from pytorch_notes.parse import parse_example
from pytorch_notes.store.model import FORMAT, Provenance, Record
from pytorch_notes.store.records import save_record


def test_figure_summarises_samples_and_checks_the_median():
    f = Figure("build", "s", [12.0, 8.0, 9.0], ("<", 10))
    assert (f.median, f.min, f.max) == (9.0, 8.0, 12.0)
    assert f.met is True
    assert Figure("build", "s", [12.0, 11.0, 9.0], ("<", 10)).met is False
    assert Figure("count", "", [1.0], ("==", 1)).met is True
    assert Figure("no target", "s", [1.0]).met is None


def test_ratio_uses_medians_and_extreme_samples():
    slow, fast = Figure("slow", "s", [100.0, 90.0, 110.0]), Figure("fast", "s", [4.0, 5.0, 6.0])
    r = ratio("speed-up", slow, fast, (">=", 20))
    assert r.median == pytest.approx(20.0)
    assert r.min == pytest.approx(90 / 6) and r.max == pytest.approx(110 / 4)
    assert r.met is True


def test_table_shows_median_min_max_target_and_result():
    table = format_table([Figure("build, warm", "s", [9.5, 9.0, 12.25], ("<", 10)),
                          Figure("page weight", "KB", [350.0], ("<", 300), "20 pages"),
                          Figure("index size", "KB", [12.0])])
    lines = table.splitlines()
    assert lines[0].split()[:6] == ["figure", "median", "min", "max", "target", "result"]
    assert set(lines[1]) <= {"-", " "}
    warm = lines[2]
    assert warm.startswith("build, warm")
    assert [warm.index(x) for x in ("9.50 s", "9.00 s", "12.25 s", "< 10.00 s", "met")] == sorted(
        warm.index(x) for x in ("9.50 s", "9.00 s", "12.25 s", "< 10.00 s", "met"))
    assert "MISSED" in lines[3] and "20 pages" in lines[3]
    assert lines[4].split()[-2:] == ["-", "1"]  # no target: no result; one run
    assert all(len(line) <= len(lines[1]) for line in lines)  # columns are padded to one width


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


GENERATOR = '<meta name="generator" content="mkdocs-1.6.1, mkdocs-material-9.8.1">'


def test_page_weight_counts_each_referenced_asset_once_per_page(tmp_path):
    site = tmp_path / "site"
    _write(site / "assets/site.css", "body{background:url('../img/bg.png')} .x{background:url(data:image/png,AA)}")
    _write(site / "img/bg.png", b"b" * 300)
    _write(site / "assets/app.js", b"j" * 1000)
    _write(site / "img/fig.png", b"p" * 5000)
    _write(site / "search/search_index.json", b"s" * 100000)
    index = _write(site / "index.html", GENERATOR + '<link rel="stylesheet" href="assets/site.css">'
                   '<link rel="stylesheet" href="assets/site.css?v=2"><script src="assets/app.js"></script>'
                   '<img src="img/fig.png"><img src="https://cdn.example.org/x.png"><script src="gone.js"></script>')
    page = _write(site / "ch/page/index.html", GENERATOR + '<link rel="stylesheet" href="../../assets/site.css">'
                  '<script src="/assets/app.js"></script><a href="../../search/search_index.json">index</a>')
    _write(site / "404.html", GENERATOR + "<img src='img/fig.png'>")
    _write(site / "overrides/main.html", "<script src=\"{{ 'x.js' | url }}\"></script>")  # a template, not a page
    css = (site / "assets/site.css").stat().st_size
    weights = {w.page: w for w in page_weights(site)}
    assert set(weights) == {"index.html", "ch/page/index.html"}
    first = weights["index.html"]
    assert first.bytes == index.stat().st_size + css + 300 + 1000 + 5000
    assert first.external == ["https://cdn.example.org/x.png"] and first.missing == ["gone.js"]
    assert sorted(first.assets) == ["assets/app.js", "assets/site.css", "img/bg.png", "img/fig.png"]
    second = weights["ch/page/index.html"]
    assert second.bytes == page.stat().st_size + css + 300 + 1000  # shared assets count again; no index
    assert 0 < second.gzip_bytes < second.bytes


def test_flatten_nav_keeps_page_order():
    nav = ["index.md", {"Basics": ["intro.md", {"More": ["deep/x.md"]}]}, {"Link": "https://example.org"}, "b.md"]
    assert flatten_nav(nav) == ["index.md", "intro.md", "deep/x.md", "b.md"]


def test_replicate_copies_pages_examples_and_outputs(tmp_path):
    root = tmp_path
    _write(root / "examples/ch/ex.py", "# %%\nprint(1)\n")
    record = {"format": 2, "example": "ch/ex.py", "source_sha256": "abc", "provenance": {}, "cells": []}
    _write(root / "examples/_outputs/ch/ex/cpu.json", json.dumps(record))
    for lang in ("zh", "en"):
        _write(root / f"docs/{lang}/a.md", "# A\n\n::: example ch/ex.py\n\n```\n::: example ch/ex.py\n```\n")
        _write(root / f"docs/{lang}/unlisted.md", "# U\n")
    nav = ["a.md"]
    new_nav = replicate(root, 3, nav)
    assert nav == ["a.md"]  # not modified in place
    assert new_nav == ["a.md", {"Replica 2": ["a-r2.md"]}, {"Replica 3": ["a-r3.md"]}]
    for i in (2, 3):
        assert (root / f"examples/ch-r{i}/ex.py").read_text() == "# %%\nprint(1)\n"
        copied = json.loads((root / f"examples/_outputs/ch-r{i}/ex/cpu.json").read_text())
        assert copied["example"] == f"ch-r{i}/ex.py" and copied["source_sha256"] == "abc"
        for lang in ("zh", "en"):
            text = (root / f"docs/{lang}/a-r{i}.md").read_text()
            assert text.startswith(f"# A\n\n::: example ch-r{i}/ex.py\n")
            assert not (root / f"docs/{lang}/unlisted-r{i}.md").exists()
    assert replicate(root, 1, nav) == nav


def test_overhead_subset_skips_raising_examples_and_spreads_over_run_times(examples_dir, write_example):
    for n, seconds in enumerate([1.0, 2.0, 3.0, 4.0, 5.0]):
        ex = parse_example(write_example(f"ch/e{n}.py", "# %%\nprint(1)\n"), examples_dir)
        prov = Provenance(device="CPU", device_kind="cpu", torch=None, cuda=None, python="3.11", platform="Linux",
                          captured_at="2026-11-23T00:00:00Z", duration_s=seconds, wall_s=seconds + 1)
        save_record(Record(format=FORMAT, example=ex.rel, device_kind="cpu", key=ex.key, source_sha256=ex.sha256,
                           provenance=prov, cells=()), examples_dir)
    write_example("ch/raises.py", '# %% raises="KeyError"\n{}[1]\n')
    assert overhead_subset(0, examples_dir) == [f"ch/e{n}.py" for n in range(5)]
    assert overhead_subset(3, examples_dir) == ["ch/e0.py", "ch/e2.py", "ch/e4.py"]
    assert overhead_subset(1, examples_dir) == ["ch/e2.py"]


# ---------------------------------------------------------------- the loop section's pure helpers

DRY_RUN = "test -x .venv/bin/python || python3 -m venv .venv\n.venv/bin/mkdocs serve -a 127.0.0.1:8000 --livereload\n"


def test_serve_script_moves_the_recipe_to_the_given_port():
    script = serve_script(DRY_RUN + "make: Leaving directory '/x'\n", 40123)
    assert script.splitlines() == ["test -x .venv/bin/python || python3 -m venv .venv",
                                   ".venv/bin/mkdocs serve -a 127.0.0.1:40123 --livereload"]
    assert serve_script("mkdocs serve --dev-addr=localhost:8000", 5) == "mkdocs serve --dev-addr=127.0.0.1:5"
    with pytest.raises(BenchError, match="no host:port"):
        serve_script("mkdocs serve", 5)


def test_an_enclosing_makes_command_line_variables_do_not_reach_the_fresh_clones_make(tmp_path):
    """make puts the variables given on its command line in its recipes' environment: ``make bench ARGS=...``
    handed its ARGS to the fresh clones' ``make serve`` (``mkdocs serve ... --only build,loop``, exit 2)."""
    import subprocess

    (tmp_path / "Makefile").write_text('all:\n\t@printf "%s|%s" "$$ARGS" "$$MAKEFLAGS"\n', encoding="utf-8")
    outer = subprocess.run(["make", "-s", "ARGS=--only build,loop", "PORT=8001"], cwd=tmp_path, text=True,
                           capture_output=True, check=True).stdout
    args, makeflags = outer.split("|")
    env = {"ARGS": args, "PORT": "8001", "MAKEFLAGS": makeflags, "MAKELEVEL": "1", "HOME": "/home/x"}
    assert args == "--only build,loop"
    assert clean_make_env(env) == {"HOME": "/home/x"}
    assert clean_make_env({"ARGS": "mine", "HOME": "/home/x"}) == {"ARGS": "mine", "HOME": "/home/x"}


def test_build_pending_pairs_each_detected_change_with_its_end():
    log = "INFO - Serving on http://127.0.0.1:8000/\nINFO - Detected file changes\nINFO - Building documentation...\n"
    assert build_pending(log)
    assert not build_pending(log + "INFO - Reloading browsers\n")
    assert not build_pending(log + "ERROR - An error happened during the rebuild. The server will appear stuck\n")
    assert build_pending(log + "INFO - Reloading browsers\nINFO - Detected file changes\n")
    assert not build_pending("")


def test_poll_until_returns_the_elapsed_time_or_none_after_the_timeout():
    now = [0.0]
    calls = []

    def check():
        calls.append(now[0])
        return len(calls) == 4

    def sleep(s):
        now[0] += s

    assert poll_until(check, 10, interval=0.5, clock=lambda: now[0], sleep=sleep) == pytest.approx(1.5)
    assert calls == [0.0, 0.5, 1.0, 1.5]
    now[0] = 0.0
    assert poll_until(lambda: False, 1.0, interval=0.3, clock=lambda: now[0], sleep=sleep) is None
    assert now[0] == pytest.approx(1.2)  # one poll past the timeout, not more


def test_markers_are_appended_as_a_sentence_and_a_bilingual_comment_pair():
    m = marker()
    assert m.startswith("benchloop") and m.isalnum() and marker() != m
    assert append_marker_sentence("# T\n\ntext\n\n", m) == f"# T\n\ntext\n\nBenchmark marker {m}.\n"
    assert append_marker_comment("# %%\nx = 1", m) == f"# %%\nx = 1\n# zh: {m}\n# en: {m}\n"


def test_strip_embeds_keeps_the_syntax_shown_in_fences_and_comments():
    page = ("# A\n\n::: example ch/ex.py\n\ntext\n\n    ::: example ch/other.py\n\n"
            "```\n::: example ch/ex.py\n```\n<!--\n::: example ch/ex.py\n-->\n")
    assert strip_embeds(page) == ("# A\n\n\ntext\n\n\n"
                                  "```\n::: example ch/ex.py\n```\n<!--\n::: example ch/ex.py\n-->\n")


def test_plain_overrides_drop_hooks_notebooks_and_watched_paths():
    cfg = {"hooks": ["scripts/h.py"], "watch": ["examples"],
           "plugins": [{"pytorch-notes": {"defer_imports": []}}, "pytorch-notes", {"search": {"lang": ["zh"]}}, "i18n",
                       {"mkdocs-jupyter": {"execute": False}}, "mkdocs-jupyter"]}
    out = plain_overrides(cfg)
    assert out["hooks"] == [] and out["watch"] == []
    assert out["plugins"] == [{"search": {"lang": ["zh"]}}, "i18n"]
    assert set(out["validation"]["links"].values()) == {"info"}
    assert cfg["plugins"][4] == {"mkdocs-jupyter": {"execute": False}}  # not modified in place


def test_example_urls_lists_the_embedding_pages_and_notebooks_of_each_language(tmp_path):
    _write(tmp_path / "docs/zh/index.md", "# 首页\n\n::: example ch/ex.py\n")
    _write(tmp_path / "docs/zh/ch.md", "# 章\n\n::: example ch/ex.py\n\n::: example ch/other.py\n")
    _write(tmp_path / "docs/en/ch.md", "# Chapter\n\n```\n::: example ch/ex.py\n```\n\n::: example ch/ex.py\n")
    _write(tmp_path / "docs/en/other.md", "# Other\n\n::: example ch/other.py\n")
    assert example_urls(tmp_path, "ch/ex.py") == ["ch/", "", "notebooks/ch/", "notebooks/index/", "en/ch/",
                                                  "en/notebooks/ch/"]


def test_the_headless_shell_is_preferred_and_chromium_named_wins(tmp_path, monkeypatch):
    for name in ("chromium", "chromium-headless-shell", "other-chrome"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CHROMIUM", raising=False)
    assert find_chromium() == str(tmp_path / "chromium-headless-shell")
    (tmp_path / "chromium-headless-shell").unlink()
    assert find_chromium() == str(tmp_path / "chromium")
    monkeypatch.setenv("CHROMIUM", "other-chrome")
    assert find_chromium() == str(tmp_path / "other-chrome")
    monkeypatch.setenv("CHROMIUM", "no-such-chrome")
    assert find_chromium() is None


def test_measured_commands_write_bytecode_only_into_the_prefix(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / "pycache"))
    assert "PYTHONDONTWRITEBYTECODE" not in bench_env(tmp_path)  # make's: compiled once, then reused
    monkeypatch.delenv("PYTHONPYCACHEPREFIX")
    assert bench_env(tmp_path)["PYTHONDONTWRITEBYTECODE"] == "1"  # no prefix: nothing beside the sources
