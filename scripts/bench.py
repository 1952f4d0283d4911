"""``make bench``: measure the site against the alternatives, in one run.

A thin entry point; the command lives in the package ``benchmarks`` (``benchmarks.cli``;
``--help`` lists its options, the module's docstring describes the sections).
"""

import sys

from benchmarks.cli import main

if __name__ == "__main__":
    sys.exit(main())
