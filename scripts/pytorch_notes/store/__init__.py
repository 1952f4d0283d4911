"""Stage 3, store: the typed record format, its layout on disk, freshness, migration and validation."""
