"""The pipeline that turns runnable examples into pages, one subpackage or module per stage.

parse (``parse``) -> execute (``execute``) -> store (``store``) -> render (``render``) -> MkDocs glue
(``site``). ``pages`` and ``twins`` read the Markdown pages (embeds, translation lag); ``capture``
orchestrates parse, execute and store for the ``make capture`` command. Only ``site`` imports MkDocs;
everything up to the store needs only the standard library (and torch in the examples), so capture runs
on a GPU machine that has no Jupyter or MkDocs. The command-line tools are thin scripts in ``scripts/``.
"""
