"""Quiet builds: MkDocs' own progress lines, this project's summary lines, and every warning and error.

Left alone, a build prints lines nobody reads (issue 27): mkdocs-jupyter's lines per notebook ("Converting
notebook", "Cache hit", "Copied jupyter file"), mkdocs-static-i18n's per-language overrides, and jieba's
start-up on stderr. Through the standard ``logging`` API (no plugin is changed): i18n's and jieba's loggers
are set to WARNING, mkdocs-jupyter's get a ``NotebookLines`` filter that drops its INFO lines and counts
its conversions, which ``on_post_build`` reports in one line, and MkDocs' INFO notes of deprecations
inside installed packages (jieba's invalid escape sequences, printed by a fresh virtualenv's first build)
are dropped (``ThirdPartyDeprecations``). The ``pytorch-notes`` plugin installs them when MkDocs loads
it, before the plugins listed after it are imported. ``mkdocs build -v`` / ``mkdocs serve -v`` (the
``mkdocs`` logger at DEBUG) leaves every line as it is.
"""

from __future__ import annotations

import logging

log = logging.getLogger("mkdocs.plugins.pytorch_notes")

# logger names, as the packages create them (MkDocs' get_plugin_logger for mkdocs_static_i18n's modules;
# mkdocs_jupyter/plugin.py and nbconvert2.py;
# jieba/__init__.py; ProperDocs, MkDocs' fork, names its plugins' loggers ``properdocs.plugins.*``)
SILENCED = ("mkdocs.plugins.mkdocs_static_i18n", "properdocs.plugins.mkdocs_static_i18n", "jieba")
NOTEBOOK_LOGGERS = ("mkdocs.plugins.mkdocs_jupyter", "mkdocs.mkdocs-jupyter")
WARNINGS_LOGGERS = ("mkdocs.__main__", "properdocs.__main__")  # _showwarning logs Python warnings there, at INFO


class NotebookLines(logging.Filter):
    """Drops mkdocs-jupyter's INFO lines (warnings and errors pass) and counts the notebooks it converts
    (``converted``) in this process."""

    def __init__(self) -> None:
        super().__init__()
        self.converted = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        if record.getMessage().startswith("Converting notebook"):
            self.converted += 1
        return False


class ThirdPartyDeprecations(logging.Filter):
    """Drops MkDocs' INFO note of a warning raised inside an installed package (its traceback names a
    ``site-packages`` file only); warnings from this project's code, and everything at WARNING and above,
    pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        text = record.getMessage()
        head, _, trace = text.partition("\n")
        if not head.split(":", 1)[0].endswith("Warning"):
            return True
        files = [line for line in trace.splitlines() if line.lstrip().startswith("File ")]
        return not files or not all("site-packages" in line for line in files)


def notebook_lines() -> NotebookLines | None:
    """The filter ``quiet_other_packages`` put on mkdocs-jupyter's converter logger, or None."""
    return next((f for f in logging.getLogger(NOTEBOOK_LOGGERS[1]).filters if isinstance(f, NotebookLines)), None)


def quiet_other_packages() -> bool:
    """Quieten ``SILENCED`` and filter ``NOTEBOOK_LOGGERS`` (once per process); False when MkDocs runs verbose."""
    if logging.getLogger("mkdocs").getEffectiveLevel() < logging.INFO:
        return False
    for name in SILENCED:
        logging.getLogger(name).setLevel(logging.WARNING)
    if notebook_lines() is None:
        lines = NotebookLines()
        for name in NOTEBOOK_LOGGERS:
            logging.getLogger(name).addFilter(lines)
    for name in WARNINGS_LOGGERS:
        warnings_log = logging.getLogger(name)
        if not any(isinstance(f, ThirdPartyDeprecations) for f in warnings_log.filters):
            warnings_log.addFilter(ThirdPartyDeprecations())
    return True


def report_notebook_conversions() -> int:
    """Log how many notebooks mkdocs-jupyter converted in this build's process (its lines are filtered), and
    start counting again; returns that number. Conversions done beforehand by ``prewarm``'s workers are
    reported by ``prewarm``."""
    lines = notebook_lines()
    if lines is None or not lines.converted:
        return 0
    converted, lines.converted = lines.converted, 0
    log.info(f"mkdocs-jupyter converted {converted} notebooks during the build")
    return converted
