"""``make new-chapter NAME=<slug>``: scaffold an example, its two pages and the nav line.

A thin entry point; see ``pytorch_notes.scaffold``.
"""

import sys

from pytorch_notes.scaffold import main

if __name__ == "__main__":
    sys.exit(main())
