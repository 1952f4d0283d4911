"""URLs of pages, chapter notebooks and notebook downloads, with and without directory URLs (``make
offline`` turns them off), relative to a language's root unless said otherwise; and the outside links
of an example block (Colab, Kaggle, a new issue)."""

from __future__ import annotations

import re
import unicodedata
import urllib.parse

from mkdocs.exceptions import PluginError

from pytorch_notes.settings import LANGUAGES

# --- URLs with and without directory URLs, and the offline copy (`make offline`) ---------------------
# Material's offline plugin (mkdocs.yml, on with OFFLINE=true) sets ``use_directory_urls: false`` so that
# links work from file://: pages become ``autograd.html`` instead of ``autograd/``.


def lang_root(lang: str) -> str:
    """``""`` for the default language, ``<lang>/`` for the others: the one place that says where a
    language's pages are (the site's layout, mkdocs-static-i18n's ``docs_structure: folder``)."""
    return "" if lang == LANGUAGES[0] else f"{lang}/"


def src_language(src_uri: str) -> tuple[str, str]:
    """(language, path under ``docs/<lang>/``) of a page's source, ``"en/autograd.md"`` -> ``("en",
    "autograd.md")`` (mkdocs-static-i18n's folder layout); a source outside the language folders is the
    default language's."""
    head, _, rest = src_uri.partition("/")
    return (head, rest) if head in LANGUAGES and rest else (LANGUAGES[0], src_uri)


def lang_of_url(url: str) -> str:
    """The language whose root holds the site-relative ``url`` (``"en/autograd/"`` -> ``"en"``,
    ``"autograd/"`` and ``""`` -> the default language)."""
    return next((lang for lang in LANGUAGES[1:] if url.startswith(lang_root(lang))), LANGUAGES[0])


def py_url(lang: str, rel: str) -> str:
    """Site path of the ``.py`` download of example ``rel`` in ``lang`` (its comments in that language):
    ``examples/<rel>`` for the default language, ``<lang>/examples/<rel>`` for the others."""
    return lang_root(lang) + f"examples/{rel}"


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


def absolute_page_url(config, lang: str, page: str) -> str:
    """The public URL of page ``page`` (e.g. ``autograd.md``) in ``lang``, from ``site_url``; "" without one.

    Used in files that leave the site (the ``.ipynb`` and ``.py`` downloads), where a relative link
    would break. Always the directory-URL form, the deployed site's (the offline copy's own links are
    ``.html`` ones, but a downloaded file points at the site on the web).
    """
    base = (config.site_url or "").strip()
    if not base.startswith(("http://", "https://")):
        return ""
    return base.rstrip("/") + "/" + lang_root(lang) + page_url(page, True)


# --- the notebook view: one notebook per chapter page --------------------------------------------------
# A chapter is a page that embeds examples (``autograd.md``); its slug names its notebook
# (``autograd``, ``a-b`` for ``a/b.md``): the one owner, ``course.Chapter.slug`` asks it.


def chapter_slug(page: str) -> str:
    """The slug of chapter page ``page``: ``autograd`` for ``autograd.md``, ``a-b`` for ``a/b.md``."""
    return page[: -len(".md")].replace("/", "-")


def chapter_notebook_dest(page: str) -> str:
    """The notebook view's file: ``notebooks/<slug>/index.html`` (the same with and without directory
    URLs, so that the per-example downloads beside it keep one place)."""
    return f"notebooks/{chapter_slug(page)}/index.html"


def chapter_notebook_src(lang: str, page: str) -> str:
    """The notebook view's source among the docs (``<lang>/notebooks/<slug>/index.ipynb``, in
    mkdocs-static-i18n's folder layout), which becomes ``chapter_notebook_dest``."""
    return f"{lang}/" + chapter_notebook_dest(page)[: -len(".html")] + ".ipynb"


def chapter_notebook_url(page: str, use_directory_urls: bool) -> str:
    """``notebooks/<slug>/``, or ``notebooks/<slug>/index.html`` without directory URLs."""
    dest = chapter_notebook_dest(page)
    return dest[: -len("index.html")] if use_directory_urls else dest


def chapter_ipynb_url(page: str) -> str:
    """The chapter notebook's ``.ipynb`` download: ``notebooks/<slug>.ipynb``."""
    return f"notebooks/{chapter_slug(page)}.ipynb"


def example_ipynb_url(rel: str) -> str:
    """One example's ``.ipynb`` download: ``notebooks/<chapter>/<name>.ipynb`` for ``<chapter>/<name>.py``."""
    return f"notebooks/{rel[: -len('.py')]}.ipynb"


def slugify(text: str) -> str:
    """Python-Markdown's default heading slug (``markdown.extensions.toc.slugify``), which both
    mkdocs-jupyter's table of contents and its heading ids give an ASCII heading."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def section_headings(examples: list[str] | tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Each example of a chapter -> (its section's heading in the chapter notebook, the heading's anchor).

    The heading is the file name (``leaf.py``, anchor ``leafpy``), or the example id
    (``autograd/leaf.py``) where two examples of the chapter share a file name."""
    names = [rel.rsplit("/", 1)[-1] for rel in examples]
    out = {}
    for rel, name in zip(examples, names, strict=True):
        heading = name if names.count(name) == 1 else rel
        out[rel] = (heading, slugify(heading))
    return out


# --- links an example block gives: Colab and Kaggle, a new issue ------------------------------------


def notebook_services(published: str, lang: str, rel: str) -> dict[str, str]:
    """Colab and Kaggle links to the notebook of example ``rel`` in ``lang``, when the notebooks are
    published in a GitHub repository: ``published`` is ``github:<owner>/<repo>@<branch>`` (mkdocs.yml
    ``extra.published_notebooks``, set by the deploy workflow, whose notebooks job pushes
    ``<lang>/<chapter>/<name>.ipynb`` to that branch). Empty for a local build.

    Raises:
        PluginError: ``published`` is set but not of that form.
    """
    if not published:
        return {}
    m = re.fullmatch(r"github:([\w.-]+/[\w.-]+)@([\w./-]+)", published)
    if not m:
        raise PluginError(f"mkdocs.yml extra.published_notebooks (env PUBLISHED_NOTEBOOKS) is {published!r}; "
                          "expected github:<owner>/<repo>@<branch>")
    repo, branch = m.groups()
    path = f"{repo}/blob/{branch}/{lang}/{rel[:-3]}.ipynb"
    source = urllib.parse.quote(f"https://github.com/{path}", safe="")
    return {"colab": f"https://colab.research.google.com/github/{path}",
            "kaggle": f"https://www.kaggle.com/kernels/welcome?src={source}"}


def new_issue_url(config) -> str:
    """``<repo_url>/issues/new`` for a GitHub or GitLab ``repo_url`` in mkdocs.yml, else ""."""
    repo = (getattr(config, "repo_url", None) or "").rstrip("/")
    return f"{repo}/issues/new" if repo.startswith(("https://github.com/", "https://gitlab.com/")) else ""
