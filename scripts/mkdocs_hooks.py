"""MkDocs hooks (listed under ``hooks:`` in mkdocs.yml): the glue lives in ``pytorch_notes.site``."""

from pytorch_notes.site.hooks import (  # noqa: F401 - MkDocs looks these names up on this module
    on_build_error,
    on_config,
    on_env,
    on_files,
    on_nav,
    on_page_content,
    on_page_context,
    on_page_markdown,
    on_post_build,
    on_pre_build,
    on_serve,
    on_startup,
)
