"""Chinese typesetting check: spaces between CJK and Latin text, full-width punctuation in prose.

Uses autocorrect (https://github.com/huacnlee/autocorrect, PyPI ``autocorrect-py``, a dev
dependency); a page passes when autocorrect would change nothing. Run by the tests on every
page in ``docs/zh/`` and by pre-commit on the Chinese pages a commit touches::

    python scripts/typesetting.py [--fix] [FILE ...]      # default: every page in docs/zh/

Prints ``file:line: text`` for each line autocorrect would change, and the suggested lines;
exits 1 if there is one. ``--fix`` rewrites the files instead.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

import autocorrect_py

from pytorch_notes.pages import language_pages
from pytorch_notes.settings import display_path


def suggest(text: str) -> str:
    """``text`` (Markdown) as autocorrect would typeset it."""
    return autocorrect_py.format_for(text, "markdown")


def problems(path: Path) -> list[str]:
    """``file:line: text`` for each line of ``path`` that autocorrect would change, then the fix as a diff."""
    text = path.read_text(encoding="utf-8")
    fixed = suggest(text)
    if fixed == text:
        return []
    old, new = text.splitlines(), fixed.splitlines()
    bad = []
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, old, new).get_opcodes():
        if tag != "equal":
            bad += [f"{display_path(path)}:{n + 1}: {old[n].strip()[:80]}" for n in range(i1, i2)]
    diff = [ln for ln in difflib.unified_diff(old, new, lineterm="", n=0) if not ln.startswith(("---", "+++"))]
    return bad + ["suggested:"] + diff[:40]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="typesetting", description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="Markdown files (default: every page in docs/zh/)")
    ap.add_argument("--fix", action="store_true", help="rewrite the files as autocorrect suggests")
    args = ap.parse_args(argv)
    files = args.files or list(language_pages("zh").values())
    failed = 0
    for f in files:
        if args.fix:
            text = f.read_text(encoding="utf-8")
            if suggest(text) != text:
                f.write_text(suggest(text), encoding="utf-8")
                print(f"typesetting: fixed {display_path(f)}")
            continue
        found = problems(f)
        if found:
            failed += 1
            print("\n".join(found))
    if failed:
        print(f"typesetting: {failed} file(s) need fixing; `python scripts/typesetting.py --fix FILE` applies "
              "the suggestions")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
