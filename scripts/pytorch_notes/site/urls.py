"""URLs of pages and notebooks, with and without directory URLs (``make offline`` turns them off)."""

from __future__ import annotations

from pathlib import Path

# --- URLs with and without directory URLs, and the offline copy (`make offline`) ---------------------
# Material's offline plugin (mkdocs.yml, on with OFFLINE=true) sets ``use_directory_urls: false`` so that
# links work from file://: pages become ``autograd.html`` instead of ``autograd/``.


def page_url(src_rel: str, use_directory_urls: bool) -> str:
    """URL of the page ``src_rel`` (e.g. ``"autograd.md"``, ``"index.md"``) relative to its language root.

    ``autograd/`` and ``""`` with directory URLs; ``autograd.html`` and ``index.html`` without.
    """
    stem = src_rel[: -len(".md")]
    if not use_directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def notebook_urls(rel: str, use_directory_urls: bool) -> tuple[str, str]:
    """(page URL, ``.ipynb`` URL) of the notebook of example ``rel``, relative to the language root.

    With directory URLs: ``notebooks/autograd/leaf/`` and ``notebooks/autograd/leaf/leaf.ipynb``
    (mkdocs-jupyter copies the notebook beside its page); without them:
    ``notebooks/autograd/leaf.html`` and ``notebooks/autograd/leaf.ipynb``.
    """
    base = f"notebooks/{rel[: -len('.py')]}"
    if use_directory_urls:
        return base + "/", f"{base}/{Path(rel).stem}.ipynb"
    return base + ".html", base + ".ipynb"


def notebook_page_dest(dest_uri: str, use_directory_urls: bool) -> tuple[str, str]:
    """(dest_uri, url) of a notebook page, given the dest_uri i18n left on its File.

    That is mkdocs-jupyter's page path (``x/index.html``, or ``x.html`` without directory URLs)
    or the raw ``x.ipynb``.
    """
    if dest_uri.endswith(".ipynb"):
        stem = dest_uri[: -len(".ipynb")]
        dest_uri = stem + "/index.html" if use_directory_urls else stem + ".html"
    if use_directory_urls and (dest_uri == "index.html" or dest_uri.endswith("/index.html")):
        return dest_uri, dest_uri[: -len("index.html")]
    return dest_uri, dest_uri
