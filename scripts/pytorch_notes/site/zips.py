"""The zips of ``bundles`` as bytes, without MkDocs: deterministic archives, kept in memory and on disk,
and the ``README.txt`` each holds.

Members are sorted, every one has the same fixed time stamp (1980-01-01, the earliest a zip can hold),
permissions and "made on" system, so the same inputs give the same bytes. Every language's examples are
deflated twice (chapter zips and the course zip), which costs far more than hashing them, so a zip is kept
in memory and in the build's one cache (``cache.Store``, kind ``bundles``), keyed by its member names and
contents (this module's code and the zlib of Python are in the key's environment); a warm build only hashes
the members and reads the zips.
"""

from __future__ import annotations

import hashlib
import io
import zipfile

from pytorch_notes.render.strings import STRINGS
from pytorch_notes.site.cache import Store
from pytorch_notes.site.cache import digest as cache_digest
from pytorch_notes.site.course import PREFIX, Chapter

DATE_TIME = (1980, 1, 1, 0, 0, 0)  # every member's time stamp: the earliest a zip holds
COMPRESS_LEVEL = 6


def zip_bytes(members: dict[str, bytes]) -> bytes:
    """A deflated zip of ``members`` (path inside the zip -> content), the same bytes for the same
    members: sorted by path, each with the time stamp ``DATE_TIME``, mode 0644 and "made on" Unix."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, wherever it is built, so that the mode below is read
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            zf.writestr(info, members[name], compresslevel=COMPRESS_LEVEL)
    return buf.getvalue()


def digest(data: bytes) -> str:
    """SHA-256 of ``data``, hex."""
    return hashlib.sha256(data).hexdigest()


class ZipCache:
    """Zips kept in memory, for the rebuilds of one process (``make serve``), and in ``store`` (None:
    memory only)."""

    def __init__(self, store: Store | None = None) -> None:
        self.store = store
        self.memory: dict[str, bytes] = {}  # key -> zip

    def zip(self, members: dict[str, bytes], digests: dict[str, str] | None = None) -> bytes:
        """``zip_bytes(members)``, kept under the key of its members (``digests`` gives the sha256 of
        contents already hashed)."""
        digests = digests or {}
        listing = sorted((name, digests.get(name) or digest(data)) for name, data in members.items())
        key = self.store.key("bundles", listing) if self.store is not None else cache_digest(listing)
        found = self.memory.get(key)
        if found is None and self.store is not None:
            found = self.store.get("bundles", key)
        if found is None:
            found = zip_bytes(members)
            if self.store is not None:
                self.store.put("bundles", key, found)
        elif self.store is not None:
            self.store.keep("bundles", key)  # from memory: still used by this build
        self.memory[key] = found
        return found

    def keep(self, limit: int) -> None:
        """Keep the memory to the last ``limit`` zips."""
        while len(self.memory) > limit:
            self.memory.pop(next(iter(self.memory)))


# --- README.txt ----------------------------------------------------------------------------------------

def chapter_readme(lang: str, site_name: str, chapter: Chapter, url: str, raises: bool) -> str:
    """The ``README.txt`` of a chapter's zip in ``lang``: what is inside, the chapter's address ``url``
    (left out when empty), how to run the examples; ``raises``: some example has a cell meant to raise."""
    t = STRINGS[lang]
    names = [rel.rsplit("/", 1)[-1][: -len(".py")] for rel in chapter.examples]
    width = max((len(n) + len(".py") for n in names), default=0)
    parts = [t["bundle_readme_title"].format(site=site_name, title=chapter.title),
             t["bundle_readme_chapter"].format(n=len(names)),
             "\n".join([t["bundle_readme_examples"]] + [f"    {n + '.py':<{width}}  {n}.ipynb" for n in names])]
    if url:
        parts.append(t["bundle_readme_site"].format(url=url))
    parts.append(t["bundle_readme_run"].format(folder=chapter.folder, name=names[0] if names else "example"))
    if raises:
        parts.append(t["bundle_readme_raises"])
    return "\n\n".join(parts) + "\n"


def course_readme(lang: str, site_name: str, chapters: list[Chapter], url: str, raises: bool) -> str:
    """The ``README.txt`` of the course zip in ``lang``: the chapters in course order with their folders."""
    t = STRINGS[lang]
    n = sum(len(c.examples) for c in chapters)
    width = max((len(c.slug) + 1 for c in chapters), default=0)
    lines = [t["bundle_readme_chapters"]] + [
        "    " + t["bundle_readme_chapter_line"].format(folder=f"{c.slug + '/':<{width}}", title=c.title,
                                                      n=len(c.examples))
        for c in chapters]
    first = chapters[0] if chapters else None
    parts = [t["bundle_readme_title"].format(site=site_name, title=t["bundle_readme_everything"]),
             t["bundle_readme_course"].format(chapters=len(chapters), n=n),
             "\n".join(lines)]
    if url:
        parts.append(t["bundle_readme_site"].format(url=url))
    if first is not None and first.examples:
        name = first.examples[0].rsplit("/", 1)[-1][: -len(".py")]
        parts.append(t["bundle_readme_run"].format(folder=f"{PREFIX}/{first.slug}", name=name))
    if raises:
        parts.append(t["bundle_readme_raises"])
    return "\n\n".join(parts) + "\n"
