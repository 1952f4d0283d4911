"""The examples of a build and their records, each read once per build: ``ExampleIndex``, kept by the
plugin and read by the embeds (``embed``), the downloads (``downloads``), the notebooks (``notebooks``,
``notebook_view``) and the times page (``times``). Nothing here renders or publishes anything."""

from __future__ import annotations

from pathlib import Path

from pytorch_notes.filememo import stat_key
from pytorch_notes.parse import ExampleError, parse_example, resolve_example
from pytorch_notes.render.html import figure_assets
from pytorch_notes.store.layout import failure_path, record_path
from pytorch_notes.store.model import DEVICE_KINDS
from pytorch_notes.store.records import StoreError, freshness


class ExampleIndex:
    """What the plugin's builds read of each example in ``examples_dir`` (the checkout's, ``project``): from
    ``new_build`` to ``end_build``, its parse, its state in the store, its source and its figures, each read
    once (``known``); outside a build, read at every call."""

    def __init__(self, examples_dir: Path) -> None:
        self.examples_dir = examples_dir
        self.building = False
        self.known: dict[str, dict] = {}  # example id -> what -> value (``keep``)

    def new_build(self, changed: set[str] | None = None) -> None:
        """A build starts (outer ``on_config``): read the examples and the store again (a capture may have
        written since the last build). Under ``make serve`` (``changed``: the examples whose file or store
        files changed since the last build, ``incremental.Plan.examples``) only those are read again."""
        if changed is None:
            self.known.clear()
        for rel in changed or ():
            self.known.pop(rel, None)
        self.building = True

    def end_build(self) -> None:
        """The build is over (outer ``on_post_build``, ``on_build_error``): outside a build every call
        reads the examples and the store."""
        self.building = False

    def keep(self, rel: str, what, make):
        """``make()``, a value of example ``rel``'s file and records only, kept under ``what`` from its first
        call in a build until they change (``new_build``); outside a build, made every time. Errors are not kept."""
        if not self.building:
            return make()
        slot = self.known.setdefault(rel, {})
        if what not in slot:
            slot[what] = make()
        return slot[what]

    def example(self, rel: str):
        """``parse_example`` of example ``rel``, once per build. Raises what it raises."""
        return self.keep(rel, "example", lambda: parse_example(resolve_example(rel, self.examples_dir),
                                                                 self.examples_dir))

    def source(self, rel: str) -> str:
        """The text of example ``rel`` as ``parse`` checked it (``Example.text``), never the file read again.
        Raises ExampleError, OSError."""
        return self.example(rel).text

    def freshness(self, example):
        """``records.freshness(example)``, read once per build and ``example.key``: the build asks for each
        example several times (its embeds and notebooks in both languages, its downloads and figures), and
        each call reads the example's store files. Raises what ``freshness`` raises; an error is not kept."""
        return self.keep(example.rel, ("fresh", example.key), lambda: freshness(example, self.examples_dir))

    def figures(self, record) -> dict:
        """``figure_assets(record)`` (their PNG bytes decoded), once per build and record."""
        if record is None:
            return {}
        found = self.keep(record.example, ("figures", record.device_kind), lambda: (record, figure_assets(record)))
        return found[1] if found[0] is record else figure_assets(record)

    def shown_example(self, rel: str):
        """(the example as it is now, the record a page shows for it: ``Freshness.record``), each None when
        it cannot be read (on_page_markdown stops the build naming the page and line)."""
        try:
            example = self.example(rel)
        except (ExampleError, OSError):
            return None, None
        try:
            return example, self.freshness(example).record
        except (StoreError, OSError):
            return example, None

    def store_state(self, rel: str) -> list:
        """The stat keys of example ``rel``'s store files (record and failure marker of every device kind):
        what its ``freshness`` reads besides the example itself."""
        return [stat_key(path(rel, kind, self.examples_dir)) for kind in DEVICE_KINDS
                for path in (record_path, failure_path)]
