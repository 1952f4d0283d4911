"""``make verify-records BASE=<ref>``: re-run, in the capture's sandbox, the examples whose code or CPU
record differs from BASE and compare their outputs with the committed records; a changed CUDA record
needs the capture workflow's attestation.

A thin entry point; the command lives in ``pytorch_notes.capture.verify`` (``--help`` lists its options).
"""

import sys

from pytorch_notes.capture.verify import main

if __name__ == "__main__":
    sys.exit(main())
