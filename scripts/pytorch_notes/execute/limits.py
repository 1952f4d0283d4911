"""How much of an example's output the project keeps: the one owner of the size bounds.

Standard library only, and free of imports from this package: ``runner.py`` loads it by path in the
example's process (to cut text and scale figures at the source), and the parent applies the same
numbers again to what the runner reports (``store/untrusted.py``), since the runner shares its
process with code nobody reviewed yet.

The numbers leave every real output of the course far inside them (largest on 2026-11-25: 11,316
characters in one cell, 11,469 in one record, a 54 KB figure of 981 x 544 px) and keep what one
example can put into a page, a notebook and the search index to a few MB.
"""

from __future__ import annotations

CELL_TEXT = 100_000  # characters of text per cell: streams, values (text/plain + text/html), errors
RECORD_TEXT = 400_000  # characters of text per record, all cells together
TRACEBACK = 20_000  # characters of one traceback (part of CELL_TEXT); the end is kept
ERROR_VALUE = 10_000  # characters of one exception message (part of CELL_TEXT)
FIGURE_PIXELS = 2400  # the longest side of a stored figure, in pixels; a larger one is scaled down at capture
FIGURE_BYTES = 1_500_000  # bytes of one PNG figure (decoded)
RECORD_FIGURE_BYTES = 6_000_000  # bytes of all the figures of one record (decoded)
FIGURES_PER_CELL = 20  # figures one cell may store
MESSAGE = 2_000  # characters of a failure message (marker and terminal)
PROCESS_OUTPUT_TAIL = 4_000  # characters of a crashed run's last output kept in its failure message
FIELD = 200  # characters of a short provenance field (device name, versions, platform, library names)
RECORD_FILE_BYTES = 12_000_000  # bytes of one record file on disk (JSON, figures as base64): a larger one is refused
