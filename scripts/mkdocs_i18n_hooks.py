"""MkDocs hooks (listed under ``hooks:`` in mkdocs.yml): a 404 page per language and localised UI strings.

They live in ``pytorch_notes.site.i18n``; a second hook file because its ``on_post_build`` runs before
mkdocs-static-i18n's, while the glue's (``scripts/mkdocs_hooks.py``) runs after it.
"""

from pytorch_notes.site.i18n import on_post_build, on_post_page  # noqa: F401 - MkDocs looks these names up
