"""``make gpu-bundle``: prepare the GPU capture's bundle (wheels the GPU image lacks, bwrap) in .gpu-bundle/.

A thin entry point; see ``pytorch_notes.capture.gpu``.
"""

import sys

from pytorch_notes.capture.gpu import main_bundle

if __name__ == "__main__":
    sys.exit(main_bundle())
