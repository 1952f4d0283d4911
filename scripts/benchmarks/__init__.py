"""The ``make bench`` command: measure the site against the alternatives, in one run.

Usage and the sections are described in ``cli`` (``python scripts/bench.py --help``). The modules:
``figures`` (``Figure``, ``ratio``, the table, the JSON report), ``repo`` (temporary copies of the
repository, the environment of measured commands, timed commands and builds, child MkDocs configs),
``build`` (the ``build``, ``exec``, ``scaling`` and ``tests`` sections), ``capture`` (``incremental``
and ``capture``), ``weight`` (page weights and search index sizes), ``reader`` (search recall and
accessibility in a browser), ``loop`` (edit-to-page reload under ``make serve``, the plain-Material
floor) with ``fresh`` (``make serve`` and ``make test`` in a fresh clone). The command line is ``cli.main``.

The package imports none of them, so that ``python -m benchmarks.reader SITE`` runs its module once
(an import of ``cli`` here made runpy warn that ``benchmarks.reader`` was already imported).
"""
