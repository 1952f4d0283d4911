"""A chapter's code is on its page once, whatever the number of device tabs (issue 44, item 11).

An example with records of two devices used to hold its code in each device's tab: every highlighted token twice
on a phone (attention: 18,207 elements, Lighthouse performance 42). ``render/html.py`` now puts the code in the
first tab only, with each device's outputs after each cell. Counted on the built site, for every example of the
attention chapter that has a CPU and a CUDA record: a line of its code that no other example has, once on the
page. ``make bench`` (``benchmarks.lighthouse``) counts the repeated code blocks of every page and measures the
pages on a phone.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = "attention"

pytestmark = pytest.mark.xdist_group("site")


def two_device_examples(md: Path) -> list[str]:
    """The examples a page embeds (``::: example ch/name.py``) that have records of both devices."""
    rels = re.findall(r"^\s*::: example (\S+\.py)", md.read_text(encoding="utf-8"), re.M)
    out = ROOT / "examples" / "_outputs"
    return [rel for rel in rels if all((out / rel[:-3] / f"{d}.json").is_file() for d in ("cpu", "cuda"))]


def _lines(rel: str) -> list[str]:
    return [ln.strip() for ln in (ROOT / "examples" / rel).read_text(encoding="utf-8").splitlines()]


def distinctive_line(rel: str, others: list[str], page_md: str) -> str:
    """The example's longest line of code (no comment) that is in it once, in none of ``others`` (the device line
    is in every example) and not in the page's Markdown (the prose quoting it)."""
    elsewhere = {ln for other in others if other != rel for ln in _lines(other)}
    lines = _lines(rel)
    code = [ln for ln in lines if ln and "#" not in ln and lines.count(ln) == 1 and ln not in elsewhere
            and ln not in page_md]
    return max(code, key=len)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_example_run_on_two_devices_has_its_code_on_the_page_once(site, lang):
    md = ROOT / "docs" / lang / f"{CHAPTER}.md"
    examples = two_device_examples(md)
    assert len(examples) >= 3, f"{CHAPTER} has examples with CPU and CUDA records: {examples}"
    built = (site / ("" if lang == "zh" else "en") / CHAPTER / "index.html").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", built))
    assert built.count('class="tabbed-set') >= len(examples), "each of them has its device tabs"
    page_md = md.read_text(encoding="utf-8")
    counts = {rel: text.count(distinctive_line(rel, examples, page_md)) for rel in examples}
    assert counts and all(n == 1 for n in counts.values()), f"a line of each example, times on the page: {counts}"
