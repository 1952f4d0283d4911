"""``make twins``: report pages whose other language has not caught up, or record a pair as in step.

A thin entry point; see ``pytorch_notes.twins``.
"""

import sys

from pytorch_notes.twins import main

if __name__ == "__main__":
    sys.exit(main())
