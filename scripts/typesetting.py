"""Chinese typesetting check of the pages (``make test`` and the pre-commit hook).

A thin entry point; see ``pytorch_notes.typesetting``.
"""

import sys

from pytorch_notes.typesetting import main

if __name__ == "__main__":
    sys.exit(main())
