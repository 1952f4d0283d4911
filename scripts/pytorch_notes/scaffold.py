"""``make new-chapter NAME=<slug> [SECTION=<nav section>]``: start a chapter in the three places.

Creates ``examples/<slug>/first_example.py``, ``docs/zh/<slug>.md`` and ``docs/en/<slug>.md``
(each page already embeds the example) and adds ``- <slug>.md`` to the ``nav:`` of
mkdocs.yml under SECTION (default: the last section before the appendix). Refuses to
overwrite anything. Then: write the three files, run ``make capture`` and
``python scripts/twins.py sync <slug>.md``, and preview with ``make serve``.
Standard library only.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from pytorch_notes.parse import NAME_PATTERN, NAME_RULE
from pytorch_notes.settings import REPO_ROOT

SLUG_RE = re.compile(rf"^{NAME_PATTERN}$")  # the one name rule of parse.py

EXAMPLE = '''\
# %%
import torch

torch.manual_seed(0)
# zh: 课程选择设备的惯用写法：有加速器（CUDA、ROCm、MPS、XPU）就用，否则用 CPU
# en: The course's device idiom: an accelerator (CUDA, ROCm, MPS, XPU) when there is one, else the CPU
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
x = torch.rand(2, 3, device=device)
print(x)
'''

PAGE_ZH = """\
---
description: 一句话说明这一章讲什么（首页的课程地图显示它）
---

# {title}

一两句话说明这一章讲什么，为什么值得学。

::: example {slug}/first_example.py

解释上面的输出。
"""

PAGE_EN = """\
---
description: one sentence on what this chapter teaches (the course map on the home page shows it)
---

# {title}

A sentence or two on what this chapter teaches and why it matters.

::: example {slug}/first_example.py

Explain the output above.
"""


class ScaffoldError(ValueError):
    """The chapter cannot be created; the message names the file in the way."""


APPENDIX = "附录"  # the nav section after the course (glossary, references); 关于 (about, deploy) follows it


def add_to_nav(mkdocs_yml: str, page: str, section: str | None) -> str:
    """Return ``mkdocs_yml`` with ``- page`` appended to nav section ``section``.

    The edit is textual, so comments and tags in mkdocs.yml are kept. ``section`` None picks
    the last course section: the one before the appendix (``APPENDIX``), or before the final
    section when there is no appendix.

    Raises:
        ScaffoldError: no ``nav:`` block, or no such section (the message lists the sections).
    """
    lines = mkdocs_yml.splitlines(keepends=True)
    try:
        start = next(i for i, ln in enumerate(lines) if ln.rstrip() == "nav:")
    except StopIteration:
        raise ScaffoldError("mkdocs.yml: no `nav:` block") from None
    sections = {}
    for i in range(start + 1, len(lines)):
        ln = lines[i]
        if ln.strip() and not ln.startswith(" "):
            break  # the next top-level key
        m = re.match(r"^  - (.+):\s*$", ln)
        if m:
            sections[m.group(1).strip()] = i
    if not sections:
        raise ScaffoldError("mkdocs.yml: `nav:` has no sections")
    names = list(sections)
    if APPENDIX in names and names.index(APPENDIX) > 0:
        last_course = names[names.index(APPENDIX) - 1]
    else:
        last_course = names[-2] if len(names) > 1 else names[-1]
    name = section or last_course
    if name not in sections:
        raise ScaffoldError(f"mkdocs.yml: no nav section {name!r}; sections are: {', '.join(names)}")
    at = sections[name] + 1
    while at < len(lines) and lines[at].startswith("      "):
        at += 1
    return "".join(lines[:at] + [f"      - {page}\n"] + lines[at:])


def scaffold(slug: str, section: str | None = None, root: Path = REPO_ROOT) -> list[Path]:
    """Create the chapter ``slug`` under ``root``; returns the files written (mkdocs.yml last).

    Raises:
        ScaffoldError: a bad slug, or a file that already exists (named in the message).
    """
    if not SLUG_RE.match(slug or ""):
        raise ScaffoldError(f"chapter name {slug!r}: use lower-case letters, digits, '_' and '-', "
                            f"e.g. NAME=attention ({NAME_RULE})")
    title = slug.replace("-", " ").capitalize()
    plan = {
        root / "examples" / slug / "first_example.py": EXAMPLE,
        root / "docs" / "zh" / f"{slug}.md": PAGE_ZH.format(title=title, slug=slug),
        root / "docs" / "en" / f"{slug}.md": PAGE_EN.format(title=title, slug=slug),
    }
    taken = [p for p in [root / "examples" / slug, *plan] if p.exists()]
    if taken:
        raise ScaffoldError(f"{taken[0].relative_to(root)} already exists; pick another NAME or edit it directly")
    config = root / "mkdocs.yml"
    new_config = add_to_nav(config.read_text(encoding="utf-8"), f"{slug}.md", section)
    for path, text in plan.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config.write_text(new_config, encoding="utf-8")
    return [*plan, config]


def main(argv: list[str] | None = None, root: Path = REPO_ROOT) -> int:
    ap = argparse.ArgumentParser(prog="make new-chapter", description=__doc__.split("\n\n")[0])
    ap.add_argument("name", help="chapter slug, e.g. attention")
    ap.add_argument("--section", default=None, help="nav section to add it to (default: the last before the appendix)")
    args = ap.parse_args(argv)
    try:
        written = scaffold(args.name, args.section, root)
    except ScaffoldError as exc:
        print(f"new-chapter: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"new-chapter: wrote {path.relative_to(root)}")
    print(f"next: write the example and both pages, then `make capture`, "
          f"`python scripts/twins.py sync {args.name}.md` and `make serve`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
