"""Credentials recognised by their shape, removed from every text the store writes. Standard library only.

``untrusted.Secrets`` removes the values of the capturing environment's secret-looking variables; a token
that reaches an output from anywhere else (a file the example could read, a value it was given by a
library, one it made up to test us) is caught here by its published format:

* GitHub tokens: ``ghp_``, ``gho_``, ``ghu_``, ``ghs_``, ``ghr_`` (classic, OAuth, user, server, refresh) and
  fine-grained ``github_pat_``;
* ``sk-`` keys (OpenAI, Anthropic's ``sk-ant-``, Stripe's ``sk_live_`` is not of this form) of at least 20
  characters with a digit;
* AWS access key ids (``AKIA``, ``ASIA`` and 16 upper-case letters or digits);
* Slack tokens (``xoxa-``, ``xoxb-``, ``xoxp-``, ``xoxr-``);
* PEM private-key blocks, ``-----BEGIN ... PRIVATE KEY-----`` to its ``END`` line (or, cut, to the end of
  its base64 lines).

A match becomes ``[secret removed]`` (``REMOVED``), as ``Secrets`` writes it.
"""

from __future__ import annotations

import dataclasses
import re

REMOVED = "[secret removed]"
_EDGE = r"(?<![A-Za-z0-9_-])"  # a token starts a word: "task-..." holds no "sk-" key
TOKEN = re.compile(
    rf"{_EDGE}gh[pousr]_[A-Za-z0-9]{{20,}}"
    rf"|{_EDGE}github_pat_[A-Za-z0-9_]{{20,}}"
    rf"|{_EDGE}sk-(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{{20,}}"
    rf"|{_EDGE}(?:AKIA|ASIA)[0-9A-Z]{{16}}(?![0-9A-Za-z])"
    rf"|{_EDGE}xox[abpr]-[A-Za-z0-9-]{{10,}}"
    r"|-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----(?:.{0,20000}?-----END \1PRIVATE KEY-----|[A-Za-z0-9+/=\s\\:,-]*)",
    re.DOTALL)
SKIPPED_FIELDS = frozenset({("Image", "data")})  # an image's base64 PNG: binary, not text anybody reads


def scrub_text(text: str) -> str:
    """``text`` with every token of the formats above replaced by ``REMOVED``."""
    return TOKEN.sub(REMOVED, text) if text else text


def scrub(value):
    """``value`` (a record, a failure marker, any dataclass, tuple, list or dict of them, or a string) with
    ``scrub_text`` applied to every string in it, keys included, but images' ``data``; a new object, the
    argument is left as it is. Anything else (numbers, None) is returned unchanged."""
    if isinstance(value, str):
        return scrub_text(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: scrub(getattr(value, f.name)) for f in dataclasses.fields(value)
                   if (type(value).__name__, f.name) not in SKIPPED_FIELDS}
        return dataclasses.replace(value, **changes)
    if isinstance(value, tuple | list):
        return type(value)(scrub(v) for v in value)
    if isinstance(value, dict):
        return {scrub(k): scrub(v) for k, v in value.items()}
    return value
