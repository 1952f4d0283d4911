"""Translation lag: notice when a page changed in one language and not in the other.

Every page exists twice, ``docs/zh/<page>`` and ``docs/en/<page>`` (its *twin*).
``docs/twins.json`` records, per page, a hash of each twin's text as it was when someone
last declared the pair in step. Comparing with the current text tells which side moved:

* only the Chinese page changed: the English twin *may be out of date* (and vice versa);
* both changed: both are flagged until someone confirms they are in step again;
* a page not recorded yet (new): flagged until its pair is recorded.

The site shows a banner on a page whose twin moved on (``scripts/pytorch_notes/site/lag.py``), and
``tests/content/test_content.py`` fails listing every such pair. After updating the translation
(or deciding the change needs none, e.g. a typo), record the pair as in step::

    python scripts/twins.py sync tensors.md      # or: make twins ARGS="sync tensors.md"
    python scripts/twins.py sync --all           # every page (after a bulk edit)
    python scripts/twins.py                      # report; exit 1 if any pair is out of step

Standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from pytorch_notes.atomic import write_atomic
from pytorch_notes.pages import language_pages
from pytorch_notes.settings import DOCS_DIR, LANGUAGES

LEDGER_NAME = "twins.json"
LANGUAGE_NAMES = {"zh": "Chinese", "en": "English"}


class TwinsError(ValueError):
    """The ledger is unreadable, or a page named on the command line does not exist."""


@dataclass(frozen=True)
class Lag:
    """A page pair out of step.

    Attributes:
        page: path under ``docs/<lang>/``, e.g. ``"tensors.md"``.
        changed: languages whose text changed since the last sync (empty for a new page).
        stale: languages whose page may now be out of date (the twins of ``changed``).
    """

    page: str
    changed: tuple[str, ...]
    stale: tuple[str, ...]

    def describe(self, docs_dir: Path = DOCS_DIR) -> str:
        files = " and ".join(f"{Path(docs_dir).name}/{lang}/{self.page}" for lang in LANGUAGES)
        if not self.changed:
            why = "never recorded as in step (a new page?)"
        elif len(self.changed) == len(LANGUAGES):
            why = "both changed since they were last recorded as in step"
        else:
            (lang,) = self.changed
            (other,) = self.stale
            why = f"the {LANGUAGE_NAMES.get(lang, lang)} page changed since the last sync; " \
                  f"the {LANGUAGE_NAMES.get(other, other)} one may be out of date"
        return f"{files}: {why}. Bring them in step, then run `python scripts/twins.py sync {self.page}`"


def text_hash(path: Path) -> str:
    """First 16 hex digits of the SHA-256 of the page's text (line endings normalised)."""
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def ledger_path(docs_dir: Path = DOCS_DIR) -> Path:
    return Path(docs_dir) / LEDGER_NAME


_SHAPE = '{"pages": {"<page>.md": {"zh": "<hash>", "en": "<hash>"}, ...}}'


def load_ledger(docs_dir: Path = DOCS_DIR) -> dict[str, dict[str, str]]:
    """``{page: {lang: hash}}`` from ``docs/twins.json`` ({} when absent).

    Raises:
        TwinsError: the file is not valid JSON, or not of that shape (an object whose ``pages`` maps each
            page to an object of strings by language): the message names the file, what was found where
            and what was expected, and how to recover.
    """
    path = ledger_path(docs_dir)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise _unreadable(path, f"not JSON ({exc})") from None
    if not isinstance(data, dict) or "pages" not in data:
        raise _unreadable(path, f"the top level is {_kind(data)} without \"pages\"")
    pages = data["pages"]
    if not isinstance(pages, dict):
        raise _unreadable(path, f'"pages" is {_kind(pages)}')
    for page, hashes in pages.items():
        if not isinstance(hashes, dict):
            raise _unreadable(path, f'"pages"[{page!r}] is {_kind(hashes)}, expected an object of hashes by language')
        for lang, value in hashes.items():
            if not isinstance(value, str):
                raise _unreadable(path, f'"pages"[{page!r}][{lang!r}] is {_kind(value)}, expected a string (a hash)')
    return pages


def _kind(value: object) -> str:
    """``a list``, ``a string``...: what a JSON value is, in words."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number",
             float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _unreadable(path: Path, what: str) -> TwinsError:
    return TwinsError(f"{path}: unreadable translation ledger: {what}; expected {_SHAPE}. Recreate it with "
                      f"`python scripts/twins.py sync --all` once the pages are in step")


def save_ledger(pages: dict[str, dict[str, str]], docs_dir: Path = DOCS_DIR) -> None:
    data = {"about": "Hash of each page's text when its two languages were last recorded as in step. "
                     "Written by `python scripts/twins.py sync PAGE`; see scripts/twins.py.",
            "pages": {k: pages[k] for k in sorted(pages)}}
    write_atomic(ledger_path(docs_dir), json.dumps(data, ensure_ascii=False, indent=1) + "\n", durable=True)


def _lag(page: str, recorded: dict[str, str] | None, docs_dir: Path) -> Lag | None:
    """The lag of one page pair (present in every language), or None if it is in step."""
    if recorded is None:
        return Lag(page, (), LANGUAGES)
    changed = tuple(lang for lang in LANGUAGES
                    if recorded.get(lang) != text_hash(Path(docs_dir) / lang / page))
    if not changed:
        return None
    stale = LANGUAGES if len(changed) == len(LANGUAGES) else tuple(lg for lg in LANGUAGES if lg not in changed)
    return Lag(page, changed, stale)


def lags(docs_dir: Path = DOCS_DIR) -> list[Lag]:
    """Every page pair (present in both languages) that is out of step, in page order."""
    ledger = load_ledger(docs_dir)
    pages = set.intersection(*(set(language_pages(lang, docs_dir)) for lang in LANGUAGES))
    return [lag for page in sorted(pages) if (lag := _lag(page, ledger.get(page), docs_dir))]


def page_lag(page: str, docs_dir: Path = DOCS_DIR) -> Lag | None:
    """The lag of one page (path under ``docs/<lang>/``), or None if it is in step or not in every language.

    Raises:
        TwinsError: the ledger is unreadable.
    """
    if not all((Path(docs_dir) / lang / page).is_file() for lang in LANGUAGES):
        return None
    return _lag(page, load_ledger(docs_dir).get(page), docs_dir)


def sync(pages: list[str], docs_dir: Path = DOCS_DIR) -> list[str]:
    """Record ``pages`` (paths under ``docs/<lang>/``) as in step now. Returns the pages recorded.

    Raises:
        TwinsError: a page is missing in one of the languages.
    """
    ledger = load_ledger(docs_dir)
    per_lang = {lang: language_pages(lang, docs_dir) for lang in LANGUAGES}
    for page in pages:
        missing = [f"{docs_dir}/{lang}/{page}" for lang in LANGUAGES if page not in per_lang[lang]]
        if missing:
            raise TwinsError(f"cannot record {page} as in step: {', '.join(missing)} does not exist")
        ledger[page] = {lang: text_hash(per_lang[lang][page]) for lang in LANGUAGES}
    known = set.intersection(*(set(p) for p in per_lang.values()))
    save_ledger({k: v for k, v in ledger.items() if k in known}, docs_dir)
    return pages


def _page_name(arg: str) -> str:
    """``docs/zh/tensors.md``, ``zh/tensors.md`` or ``tensors.md`` -> ``tensors.md``."""
    name = arg.removeprefix("docs/")
    for lang in LANGUAGES:
        name = name.removeprefix(f"{lang}/")
    return name


def main(argv: list[str] | None = None, docs_dir: Path = DOCS_DIR) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/twins.py", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd")
    sp = sub.add_parser("sync", help="record page pairs as in step")
    sp.add_argument("pages", nargs="*", help="pages under docs/<lang>/, e.g. tensors.md")
    sp.add_argument("--all", action="store_true", help="every page")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "sync":
            names = [_page_name(p) for p in args.pages]
            if args.all:
                names = sorted(set.intersection(*(set(language_pages(lg, docs_dir)) for lg in LANGUAGES)))
            if not names:
                ap.error("name pages to sync, or --all")
            for page in sync(names, docs_dir):
                print(f"twins: recorded {page} as in step")
            return 0
        found = lags(docs_dir)
    except TwinsError as exc:
        print(f"twins: {exc}", file=sys.stderr)
        return 2
    for lag in found:
        print(lag.describe(docs_dir))
    print(f"twins: {len(found)} page pair(s) out of step")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
