"""The ``make capture`` command: select examples (``select``), run them (``execute``), store the
records of this machine's device (``store``); ``report`` lists and prunes, ``check`` compares runs,
``progress`` shows it. The command line is ``cli.main``."""

from pytorch_notes.capture.cli import main

__all__ = ["main"]
