"""``make capture``: run the examples whose stored outputs are stale and store the new ones.

A thin entry point; the command lives in ``pytorch_notes.capture`` (``--help`` lists its options).
Runs as ``python3 scripts/capture.py`` on a machine with only the standard library and torch.
"""

import sys

from pytorch_notes.capture import main

if __name__ == "__main__":
    sys.exit(main())
