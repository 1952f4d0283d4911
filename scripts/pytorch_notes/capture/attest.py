"""Proof that a CUDA record comes from the capture workflow, for ``make verify-records`` (``verify.py``).

No CI machine has a GPU, so a changed ``cuda.json`` cannot be re-run there. It is accepted only with a
GitHub artifact attestation (``actions/attest-build-provenance`` in ``.github/workflows/capture.yml``,
checked by ``gh attestation verify``): a signature, through Sigstore, over the file's SHA-256 digest by a
certificate that GitHub's OIDC issuer gave to one workflow run, and that names the repository, the
workflow file and the ref it ran from. The identity required here is ``capture.yml`` of this repository
run from ``refs/heads/main``, on a GitHub-hosted runner. A fork's workflows run in the fork (another
repository in the certificate and the attestation stored there), a pull request's workflows get no OIDC
token to sign with from a fork and would be another workflow or ref anyway, and changing one byte of a
record changes its digest. Standard library only.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

CAPTURE_WORKFLOW = ".github/workflows/capture.yml"
CAPTURE_REF = "refs/heads/main"


def attested(path: Path, repo: str, gh: str = "gh", server: str = "https://github.com") -> str:
    """Why ``path`` has no attestation by ``CAPTURE_WORKFLOW`` of ``repo`` (``owner/name``) run from ``CAPTURE_REF``
    on a GitHub-hosted runner (the last line ``gh attestation verify`` printed), or "" when it has one."""
    identity = f"{server}/{repo}/{CAPTURE_WORKFLOW}@{CAPTURE_REF}"
    try:
        proc = subprocess.run([gh, "attestation", "verify", str(path), "--repo", repo, "--cert-identity", identity,
                               "--deny-self-hosted-runners"], capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"gh attestation verify could not run: {exc}"
    said = (proc.stderr.strip() or proc.stdout.strip() or f"exit status {proc.returncode}").splitlines()[-1]
    return "" if proc.returncode == 0 else f"no attestation by {identity}: {said}"


def cuda_problems(paths: list[str], proof: str, repo: str, examples_dir: Path) -> list[str]:
    """One message per CUDA store file of ``paths`` that the ``proof`` (``none`` or ``attestation``) does not
    cover (a file that is not a regular one never is: the store refuses links)."""
    if not paths:
        return []
    if proof == "none":
        return [f"examples/{p}: a CUDA record changed, which no CI machine can re-run; only the capture workflow "
                f"({CAPTURE_WORKFLOW}) may change it, and CI checks its attestation (--cuda-proof attestation)"
                for p in paths]
    if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
        return [f"--cuda-proof attestation needs --repo OWNER/NAME (or GITHUB_REPOSITORY); got {repo!r}"]
    found = []
    for p in paths:
        if (examples_dir / p).is_symlink() or not (examples_dir / p).is_file():
            found.append(f"examples/{p}: not a regular file")
        elif why := attested(examples_dir / p, repo, server=os.environ.get("GITHUB_SERVER_URL", "https://github.com")):
            found.append(f"examples/{p}: {why}")
    return found
