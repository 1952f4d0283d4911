"""Stage 5, the MkDocs glue: the only part of the pipeline that imports MkDocs."""
