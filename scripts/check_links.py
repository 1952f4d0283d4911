"""``make check-links``: check the pages' external links (needs the network; never part of the build).

A thin entry point; see ``pytorch_notes.check_links``.
"""

import sys

from pytorch_notes.check_links import main

if __name__ == "__main__":
    sys.exit(main())
