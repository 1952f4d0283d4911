"""The zips of ``bundles`` as bytes, without MkDocs: deterministic archives, kept in memory and on disk,
and the ``README.txt`` each holds.

Members are sorted, every one has the same fixed time stamp (1980-01-01, the earliest a zip can hold),
permissions and "made on" system, so the same inputs give the same bytes. Every language's examples are
deflated twice (chapter zips and the course zip), which costs far more than hashing them, so a zip is kept
in memory and in the build's one cache (``cache.Store``, kind ``bundles``), keyed by its member names and
contents (this module's code and the zlib of Python are in the key's environment); a warm build only hashes
the members and reads the zips.

A zip deflates each member on its own, so under ``make serve`` a member is deflated once per content
(``ZipCache.deflated``, by the sha256 of the content): after an example edit, re-zipping both languages'
course and chapter zips deflated all of the course again (0.5 s per course zip, 6 MB of members; 43 % of an
example edit's rebuild under py-spy, 2026-11-29), and now deflates the one changed file. Python's ``zipfile``
cannot take a member already deflated, so ``zip_bytes`` writes the archive's records itself (PKWARE's
APPNOTE.TXT 4.3: local file header, data, central directory, end of central directory), the same bytes as
``zipfile`` writes for these members (``tests/site/test_bundles.py`` compares them).
"""

from __future__ import annotations

import hashlib
import struct
import zlib

from pytorch_notes.render.strings import STRINGS
from pytorch_notes.site.cache import Store
from pytorch_notes.site.cache import digest as cache_digest
from pytorch_notes.site.course import PREFIX, Chapter

DATE_TIME = (1980, 1, 1, 0, 0, 0)  # every member's time stamp: the earliest a zip holds
COMPRESS_LEVEL = 6


_LOCAL = struct.Struct("<4s2B4HL2L2H")     # local file header (zipfile.structFileHeader)
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")  # central directory entry (zipfile.structCentralDir)
_END = struct.Struct("<4s4H2LH")            # end of central directory (zipfile.structEndArchive)
_VERSION = 20       # 2.0: deflate; the "version made by" and "needed to extract" zipfile writes for them
_UNIX = 3           # "made on" Unix, wherever it is built, so that the mode below is read
_MODE = 0o100644 << 16  # a regular file, rw-r--r--
_UTF8_NAME = 0x800  # general purpose flag 11: the name is UTF-8 (zipfile sets it for a non-ASCII name)
_DEFLATED = 8
_DOS_TIME = 0
_DOS_DATE = (DATE_TIME[0] - 1980) << 9 | DATE_TIME[1] << 5 | DATE_TIME[2]


def deflate(data: bytes) -> tuple[int, bytes]:
    """``data``'s CRC-32 and raw deflate stream at ``COMPRESS_LEVEL``, as ``zipfile`` deflates a member."""
    compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15)
    return zlib.crc32(data), compressor.compress(data) + compressor.flush()


def zip_bytes(members: dict[str, bytes], deflated: dict[str, tuple[int, bytes]] | None = None,
              digests: dict[str, str] | None = None) -> bytes:
    """A deflated zip of ``members`` (path inside the zip -> content), the same bytes for the same
    members: sorted by path, each with the time stamp ``DATE_TIME``, mode 0644 and "made on" Unix.

    ``deflated`` (sha256 of a content -> ``deflate`` of it) supplies members deflated before and takes the
    new ones; ``digests`` (path -> sha256 of its content) saves hashing them again. Raises ``ValueError``
    for a zip of 4 GiB or more (zip64 is not written)."""
    deflated = {} if deflated is None else deflated
    digests = digests or {}
    out, central = bytearray(), bytearray()
    for name in sorted(members):
        data = members[name]
        key = digests.get(name) or digest(data)
        if key not in deflated:
            deflated[key] = deflate(data)
        crc, packed = deflated[key]
        try:
            raw, flags = name.encode("ascii"), 0
        except UnicodeEncodeError:
            raw, flags = name.encode("utf-8"), _UTF8_NAME
        offset = len(out)
        out += _LOCAL.pack(b"PK\x03\x04", _VERSION, 0, flags, _DEFLATED, _DOS_TIME, _DOS_DATE, crc,
                           len(packed), len(data), len(raw), 0) + raw + packed
        central += _CENTRAL.pack(b"PK\x01\x02", _VERSION, _UNIX, _VERSION, 0, flags, _DEFLATED, _DOS_TIME,
                                 _DOS_DATE, crc, len(packed), len(data), len(raw), 0, 0, 0, 0, _MODE, offset)
        central += raw
    if len(out) + len(central) >= 0xFFFFFFFF or len(members) >= 0xFFFF:
        raise ValueError(f"a zip of {len(members)} members and {len(out)} bytes needs zip64, not written here")
    end = _END.pack(b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(out), 0)
    return bytes(out + central + end)


def deflated_members(archive: bytes) -> dict[str, tuple[int, bytes]]:
    """The members of a zip ``zip_bytes`` wrote, by name: each one's CRC-32 and deflated bytes, read from its
    local file header (no data descriptor follows: the sizes are in the header). Raises ``ValueError`` on
    another layout."""
    found, at = {}, 0
    while archive.startswith(b"PK\x03\x04", at):
        (_, _, _, flags, method, _, _, crc, packed, _, name_len, extra_len) = _LOCAL.unpack_from(archive, at)
        if method != _DEFLATED or flags & ~_UTF8_NAME or extra_len:
            raise ValueError("not a zip written by zip_bytes")
        start = at + _LOCAL.size
        name = archive[start:start + name_len].decode("utf-8" if flags else "ascii")
        found[name] = (crc, archive[start + name_len:start + name_len + packed])
        at = start + name_len + packed
    return found


def digest(data: bytes) -> str:
    """SHA-256 of ``data``, hex."""
    return hashlib.sha256(data).hexdigest()


class ZipCache:
    """Zips kept in memory, for the rebuilds of one process (``make serve``), and in ``store`` (None:
    memory only)."""

    def __init__(self, store: Store | None = None) -> None:
        self.store = store
        self.memory: dict[str, bytes] = {}  # key -> zip
        self.deflated: dict[str, tuple[int, bytes]] = {}  # sha256 of a member's content -> ``deflate`` of it
        self.used: set[str] = set()  # the keys of ``deflated`` the zips since the last ``keep`` used
        self.used_before: set[str] = set()  # ...and those the zips between the two ``keep`` before used

    def zip(self, members: dict[str, bytes], digests: dict[str, str] | None = None) -> bytes:
        """``zip_bytes(members)``, kept under the key of its members (``digests`` gives the sha256 of
        contents already hashed)."""
        digests = digests or {}
        listing = sorted((name, digests.get(name) or digest(data)) for name, data in members.items())
        key = self.store.key("bundles", listing) if self.store is not None else cache_digest(listing)
        found = self.memory.get(key)
        if found is None and self.store is not None:
            found = self.store.get("bundles", key)
            if found is not None:  # from the last build: its members need not be deflated again either
                self._learn(found, dict(listing))
        if found is None:
            found = zip_bytes(members, self.deflated, dict(listing))
            if self.store is not None:
                self.store.put("bundles", key, found)
        elif self.store is not None:
            self.store.keep("bundles", key)  # from memory: still used by this build
        self.memory[key] = found
        self.used.update(d for _, d in listing)
        return found

    def _learn(self, archive: bytes, digests: dict[str, str]) -> None:
        """Keep the deflated members of ``archive`` (read from the store) under their contents' ``digests``."""
        try:
            members = deflated_members(archive)
        except (ValueError, UnicodeDecodeError, struct.error):
            return  # written otherwise (an older build): its members are deflated when needed
        for name, packed in members.items():
            if name in digests:
                self.deflated.setdefault(digests[name], packed)

    def keep(self, limit: int) -> None:
        """Keep the memory to the last ``limit`` zips, and the deflated members to those of the zips made
        or found since the call before the last (``Bundles`` calls this once per language: each language's
        members are kept until its next build)."""
        while len(self.memory) > limit:
            self.memory.pop(next(iter(self.memory)))
        kept = self.used | self.used_before
        self.deflated = {k: v for k, v in self.deflated.items() if k in kept}
        self.used_before, self.used = self.used, set()


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
