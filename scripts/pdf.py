"""``make pdf``: the course as a book, one PDF per language, printed from the built site by headless Chromium.

A thin entry point; see ``pytorch_notes.book``.
"""

import sys

from benchmarks.chromium import INSTALL, find_chromium
from pytorch_notes.book.cli import main

if __name__ == "__main__":
    sys.exit(main(chromium=find_chromium(), install=INSTALL))
