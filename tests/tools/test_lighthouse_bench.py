"""The pure parts of ``make bench``'s lighthouse section (scripts/benchmarks/lighthouse.py): the count of code blocks a
page holds twice, and the local server that compresses what it serves as GitHub Pages does. Lighthouse itself (npm)
runs only in ``make bench``."""

from __future__ import annotations

import gzip
import urllib.request

from benchmarks.lighthouse import find_lighthouse, repeated_code, served


def code_block(code: str, first_line: int, title: str = "") -> str:
    """A code block as pymdownx.highlight writes it with line numbers (the site's settings)."""
    lines = code.count("\n")
    head = f'<tr><th colspan="2" class="filename"><span class="filename">{title}</span></th></tr>' if title else ""
    numbers = "\n".join(f'<span class="normal">{n}</span>' for n in range(first_line, first_line + lines))
    spans = "".join(f'<span class="n">{w}</span> ' for w in code.split())
    return (f'<div class="language-python highlight"><table class="highlighttable">{head}<tr><td class="linenos">'
            f'<div class="linenodiv"><pre><span></span>{numbers}</pre></div></td><td class="code"><div><pre>'
            f"<span></span><code>{spans}\n</code></pre></div></td></tr></table></div>")


def test_a_code_block_a_page_holds_twice_is_counted(tmp_path):
    page = tmp_path / "ch" / "index.html"
    page.parent.mkdir()
    once = code_block("x = 1\n", 2, "ch/ex.py") + code_block("y = x\n", 4)
    output = '<div class="pn-output"><pre><code>1\n</code></pre></div>'
    page.write_text(once + output * 2, encoding="utf-8")  # the same output twice: not code
    assert repeated_code(tmp_path) == (0, [])
    page.write_text(once + code_block("y = x\n", 9) + output, encoding="utf-8")  # the same line elsewhere
    assert repeated_code(tmp_path) == (0, [])
    page.write_text(once + code_block("y = x\n", 4), encoding="utf-8")  # a device tab repeating the code
    assert repeated_code(tmp_path) == (1, ["ch: y = x x2"])


def test_the_site_is_served_compressed_to_a_browser_that_accepts_it(tmp_path):
    text = "<p>" + "tensor " * 2000 + "</p>"
    (tmp_path / "ch").mkdir()
    (tmp_path / "ch" / "index.html").write_text(text, encoding="utf-8")
    (tmp_path / "a.png").write_bytes(b"\x89PNG" + bytes(100))
    with served(tmp_path) as base:
        asked = urllib.request.Request(base + "ch/", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(asked, timeout=10) as resp:
            assert resp.headers["Content-Encoding"] == "gzip" and "text/html" in resp.headers["Content-Type"]
            body = resp.read()
        assert gzip.decompress(body).decode() == text and len(body) < len(text) // 10
        with urllib.request.urlopen(base + "ch/index.html", timeout=10) as resp:  # not asked for: plain
            assert resp.headers["Content-Encoding"] is None and resp.read().decode() == text
        png = urllib.request.Request(base + "a.png", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(png, timeout=10) as resp:  # an image is compressed already
            assert resp.headers["Content-Encoding"] is None and resp.read().startswith(b"\x89PNG")


def test_lighthouse_is_found_where_the_environment_says(tmp_path, monkeypatch):
    tool = tmp_path / "lighthouse"
    tool.write_text("#!/bin/sh\n", encoding="utf-8")
    tool.chmod(0o755)
    monkeypatch.setenv("LIGHTHOUSE", str(tool))
    assert find_lighthouse() == str(tool)
    monkeypatch.setenv("LIGHTHOUSE", str(tmp_path / "missing"))
    assert find_lighthouse() is None
