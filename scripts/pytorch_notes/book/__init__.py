"""``make pdf``: the course as a book, one PDF per language, printed from the built site by headless Chromium.

A tool stage: it reads the built site and the nav of ``mkdocs.yml`` and imports earlier stages; nothing
imports it. ``assemble`` puts the pages of a language into one HTML document in nav order (``book.css`` the
print style, ``book.js`` what Chromium does to it before printing); ``printer`` prints it twice, the second
time with the table of contents' page numbers read from the first PDF.
"""
