"""Where the checkout being built keeps its files, taken from its MkDocs configuration (``on_config``).

A build reads the pages, examples and records of the checkout whose ``mkdocs.yml`` it was given, and
keeps its caches in that checkout, wherever the package running it was imported from: the plugin
makes one ``Project`` and hands it (or the folders of it that they need) to the objects of its builds.
No module of ``site/`` keeps a path of a checkout at module level. The command-line tools of the other
stages (``make capture``, ``twins.py``, ...) run from the repository and keep ``settings``' folders.

The build code itself is not the checkout's: ``CODE`` is the ``scripts/`` folder this package was
imported from (what the caches' keys and ``make serve``'s watch cover as "the pipeline code").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CODE = Path(__file__).resolve().parents[2]  # scripts/ of the running package


@dataclass(frozen=True)
class Project:
    """The folders of one checkout: ``root`` (where ``config_file``, its ``mkdocs.yml``, is), the pages
    (``docs_dir``), the examples and their record store (``examples_dir``, store in ``_outputs/``), the
    build's caches (``cache_dir``: search entries, page renders, notebooks, zips, memos) and the theme's
    overrides (``overrides_dir``: its ``custom_dir``; None: ``docs_dir/overrides``)."""

    config_file: Path
    root: Path
    docs_dir: Path
    examples_dir: Path
    cache_dir: Path
    overrides_dir: Path | None = None

    @classmethod
    def from_config(cls, config) -> Project:
        """The checkout of the MkDocs configuration ``config``: its ``config_file_path``, ``docs_dir`` and
        ``theme.custom_dir``, as MkDocs gives them (absolute paths, which the paths of its files start with)."""
        config_file = Path(config.config_file_path)
        root = config_file.parent
        custom = getattr(getattr(config, "theme", None), "custom_dir", None)
        return cls(config_file, root, Path(config.docs_dir), root / "examples", root / ".cache" / "pytorch-notes",
                   Path(custom) if custom else None)
