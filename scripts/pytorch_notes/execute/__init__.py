"""Stage 2, execute: run an example in a fresh process (``supervise``) that runs its cells (``runner``)."""
