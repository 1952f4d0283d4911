"""Stage 4, render: an example and its stored outputs as page HTML/Markdown and as a notebook."""
