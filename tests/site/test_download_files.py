"""Every download is put in the site once, with its final content (``site/downloads.py``, issue 43 item 3):
the plugin's ``on_files`` creates each ``.py``, figure, ``.ipynb`` and zip ``File`` once per language, and no
later step of it changes or removes one (the ``.py`` was created from the example's file, stamped later and
found again by its URL for the zips)."""

from __future__ import annotations

import io
import zipfile
from collections import Counter

import pytest
from mkdocs.plugins import PluginCollection
from mkdocs.structure.files import Files
from pytorch_notes.render.notebook import py_download
from pytorch_notes.site.plugin import PyTorchNotesPlugin
from pytorch_notes.site.urls import py_url
from test_course import _checkout


class _Recorded(Files):
    """Files that remember each file's content when it is added, and refuse to lose one."""

    def __init__(self, files) -> None:
        super().__init__(files)
        self.added: list[tuple[str, bytes]] = []

    def append(self, file) -> None:
        self.added.append((file.src_uri, file.content_bytes))
        super().append(file)

    def remove(self, file) -> None:
        raise AssertionError(f"{file.src_uri} was added, then taken out")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_download_is_created_once_with_its_final_content(tmp_path, lang):
    project, config = _checkout(tmp_path)
    config.theme["language"] = lang  # the language being built (mkdocs-static-i18n's, in the real site)
    plugin = PyTorchNotesPlugin()
    plugin.open_project(project)
    plugin.checkout.examples.new_build()
    plugins = PluginCollection()
    plugins["pytorch-notes"] = plugin
    add_files = plugins.events["files"][-1]  # the plugin's last files handler: the one that adds the site's files
    files = add_files(_Recorded([]), config=config)

    counts = Counter(src for src, _ in files.added)
    assert [src for src, n in counts.items() if n > 1] == [], "a download created twice"
    assert {f.src_uri: f.content_bytes for f in files} == dict(files.added), "a download changed after it was made"
    downloads = [src for src in counts if not src.endswith(("index.ipynb", ".md"))]
    for rel in ("ch1/x.py", "ch2/y.py"):  # the .py: the example as the reader downloads it, header included
        example, record = plugin.checkout.examples.shown_example(rel)
        assert files.get_file_from_path(py_url(lang, rel)).content_string == py_download(example.text, record, [],
                                                                                           lang)
    zips = [src for src in downloads if src.endswith(".zip")]
    assert len(zips) == 3 and any(src.endswith("downloads/pytorch-notes-b.zip") for src in zips)
    assert sum(src.endswith(".ipynb") for src in downloads) == 4  # two chapters', two examples'
    with zipfile.ZipFile(io.BytesIO(dict(files.added)[zips[-1]])) as course:  # the course zip: the same bytes
        assert course.read("pytorch-notes/b/y.py") == dict(files.added)[py_url(lang, "ch2/y.py")]
