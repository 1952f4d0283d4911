# ruff: noqa: F811
"""Output blocks in a real browser (issue 44): they keep the lines the example printed, at desktop and phone
width, and scroll sideways when wider than their box; streams that interleave read in one block, in the order
they were printed.
"""

from __future__ import annotations

import pytest
import test_browser

# The fixtures of the main browser suite, shared (ruff: they are used as arguments, not redefined).
from test_browser import DESKTOP, PHONE, browser  # noqa: F401

base = test_browser.base

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("site")]

# Every output block shown (collapsed ones opened first): its text's lines against the lines it takes on the
# screen (its height over its line height), its white-space, and, when wider than its box, whether it scrolls.
OUTPUT_LINES_JS = """() => {
  for (const d of document.querySelectorAll(".pn-output details")) d.open = true;
  const found = [];
  for (const code of document.querySelectorAll(".pn-output pre > code")) {
    if (!code.getClientRects().length) continue;  // another device's tab
    const cs = getComputedStyle(code);
    const lines = code.textContent.replace(/\\n$/, "").split("\\n").length;
    const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom);
    const shown = (code.scrollHeight - pad) / parseFloat(cs.lineHeight);
    const wide = code.scrollWidth > code.clientWidth + 1;
    let scrolled = 0;
    if (wide) { code.scrollLeft = 40; scrolled = code.scrollLeft; code.scrollLeft = 0; }
    const box = code.closest(".pn-output").getBoundingClientRect(), r = code.getBoundingClientRect();
    found.push({start: code.textContent.slice(0, 40), lines, shown: Math.round(shown * 100) / 100,
                whiteSpace: cs.whiteSpace, wide, scrolled, focusable: code.tabIndex >= 0,
                inside: r.left >= box.left - 1 && r.right <= box.right + 1});
  }
  return {found, sideways: document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth};
}"""


@pytest.mark.parametrize("width", ["desktop", "375px"])
@pytest.mark.parametrize("rel", ["performance/", "en/attention/"])
def test_outputs_keep_their_lines_and_scroll_sideways(browser, base, rel, width):
    """The profiler table performance.md discusses and the attention chapter's tables keep their columns:
    no output block wraps a line (it takes as many lines on the screen as it has), and one wider than its
    box scrolls inside it, reachable by keyboard, while the page itself does not scroll sideways."""
    context = browser.new_context(viewport=DESKTOP if width == "desktop" else PHONE, color_scheme="light")
    page = context.new_page()
    try:
        page.goto(base + rel)
        got = page.evaluate(OUTPUT_LINES_JS)
    finally:
        context.close()
    found = got["found"]
    assert len(found) >= 10, f"{rel}: only {len(found)} output blocks shown"
    wrapped = [f for f in found if f["shown"] > f["lines"] + 0.5 or f["whiteSpace"] != "pre"]
    assert not wrapped, f"{rel} at {width}: output blocks wrap their lines: {wrapped[:3]}"
    wide = [f for f in found if f["wide"]]
    assert wide, f"{rel} at {width}: no output wider than its box (the profiler's and attention's tables are)"
    stuck = [f for f in wide if not (f["scrolled"] > 0 and f["focusable"] and f["inside"])]
    assert not stuck, f"{rel} at {width}: wide outputs that do not scroll sideways in their box: {stuck[:3]}"
    assert got["sideways"] <= 1, f"{rel} at {width}: the page scrolls sideways by {got['sideways']} px"


STREAMS_JS = """() => {
  const gpu = document.querySelector("#example-attention-block ~ .tabbed-set .tabbed-block:first-child");
  const block = gpu && gpu.querySelector(".pn-output--streams");
  if (!block) return null;
  const stderr = block.querySelector(".pn-output__stderr"), code = block.querySelector("code");
  const rgba = (s) => { const [r, g, b, a = 1] = s.match(/[\\d.]+/g).map(Number); return [r, g, b, a]; };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3]));
  const linear = (v) => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  const lum = (c) => 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  const ground = over(rgba(getComputedStyle(stderr).backgroundColor), rgba(getComputedStyle(block).backgroundColor));
  const [a, b] = [lum(rgba(getComputedStyle(stderr).color).slice(0, 3)), lum(ground)].sort((x, y) => y - x);
  const next = block.nextElementSibling;
  return {text: code.textContent, label: block.querySelector(".pn-output__label").textContent,
          stderrColor: getComputedStyle(stderr).color, codeColor: getComputedStyle(code).color,
          nextIsOutput: !!(next && next.matches(".pn-output")), contrast: (a + 0.05) / (b + 0.05)};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_warning_printed_inside_a_table_stays_in_its_block(browser, base, scheme):
    """attention's block.py prints a table's header, then (on the GPU) cuBLAS's UserWarning, then the rows: one
    block shows them in that order, the warning marked in a colour of its own, readable (WCAG AA, 4.5:1; axe
    leaves text in a sideways-scrolling block unjudged) (issue 44, item 3: the warning was a box of its own,
    "标准错误", splitting the table)."""
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(base + "attention/")
        got = page.evaluate(STREAMS_JS)
    finally:
        context.close()
    assert got, "the GPU tab of attention/block.py shows no block of interleaved streams"
    text = got["text"]
    assert text.index("depth  block") < text.index("UserWarning: Attempting to run cuBLAS") < text.index("PlainBlock")
    assert "标准错误" in got["label"] and not got["nextIsOutput"], got["label"]
    assert got["stderrColor"] != got["codeColor"] and got["contrast"] >= 4.5, got
