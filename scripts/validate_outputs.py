"""Gate of the GPU capture workflow: every example has a good, fresh CUDA record.

A thin entry point; see ``pytorch_notes.store.validate``.
"""

import sys

from pytorch_notes.store.validate import main

if __name__ == "__main__":
    sys.exit(main())
