"""Which environment variables are secret: the one policy the sandbox and the store share.

The sandbox never passes a secret-looking variable to an example (``execute/sandbox.py``, ``example_env``),
and the store removes the values of the capturing environment's secret-looking variables from everything
it keeps (``store/untrusted.py``, ``Secrets``). Both read the rule here, below both stages, so that neither
imports the other. (The size bounds they share are ``execute/limits.py``'s: the example's process loads
that file by path, so it stays beside the runner; the store looks down to it.)

Standard library only, no imports from this package.
"""

from __future__ import annotations

import re

SECRET_NAME = re.compile(r"TOKEN|SECRET|KEY|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|AUTH|PRIVATE|COOKIE|SESSION"
                         r"|(^|_)PAT($|_)", re.IGNORECASE)  # not PWD: the shell's working directory
MIN_SECRET = 8  # shorter values are not scrubbed: "1" or "true" would erase ordinary text
