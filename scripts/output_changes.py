"""Compare two stores and print what changed in the outputs, as Markdown (the GPU workflow's pull request body).

    python3 scripts/output_changes.py --old BEFORE/_outputs --new examples/_outputs [--kind cuda]

A thin entry point; see ``pytorch_notes.capture.changes``.
"""

import sys

from pytorch_notes.capture.changes import main

if __name__ == "__main__":
    sys.exit(main())
