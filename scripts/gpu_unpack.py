"""``make gpu-unpack ARCHIVE=...``: bring a GPU capture's records into examples/_outputs and validate them.

A thin entry point; see ``pytorch_notes.capture.gpu``.
"""

import sys

from pytorch_notes.capture.gpu import main_unpack

if __name__ == "__main__":
    sys.exit(main_unpack())
