"""The one loader of the renderer's HTML templates (``render/templates/*.html``), with Jinja.

A template is looked for first in the override folder of the site being built, ``pytorch-notes/`` under
the theme's ``custom_dir`` (``docs/overrides/pytorch-notes/`` in this project: the plugin's ``on_config``
makes that site's ``Templates`` and hands it to the renderers), then among the package's own templates: a
site overrides one the way it overrides one of Material's partials, by a file of the same name
(CONTRIBUTING.md, "Templates"). ``PACKAGE`` renders with the package's own templates alone (the default of
every renderer: the capture's checks, the notebooks, the tests).

How the templates are read:

* autoescape is on for every template; a printed value is escaped once, here, with ``html.escape`` (the
  ``finalize`` of the environment: the same character references as before the templates, ``&quot;``
  and ``&#x27;``), unless it is markup already. Only ``trusted`` makes a value markup: UI strings that
  hold HTML, and a ``text/html`` result after ``escape.sanitize_html``. Every text of an example or a
  record is untrusted and is passed as text (cleaned by ``escape.py`` first: control characters,
  bounds);
* the filter ``oneline`` prints a text that may hold line breaks (an output, a traceback) escaped, with
  its line breaks as character references (``escape.one_html_line``);
* the filter ``searched_lines`` prints an output's text as ``oneline`` does, each line that is not an error
  or warning message inside ``<span data-search-exclude="true">`` (``searched_output``);
* line breaks in a template's own text, and the indentation after them, are dropped (``_OneLine``): a
  template is written on as many lines as reads well and renders as one line, which every raw HTML
  block of an embedded example must be (``site/embed.py`` stores each line in Markdown's HTML stash).
  A space between two elements is written on the same line.

Jinja (installed with MkDocs) is imported on first use, never when this module is: ``capture/check.py``
imports ``render/kinds.py``, and the capture side runs on the standard library alone.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pytorch_notes.render.escape import one_html_line

TEMPLATES = Path(__file__).resolve().with_name("templates")
OVERRIDES = "pytorch-notes"  # the folder under the theme's custom_dir that overrides TEMPLATES
_BREAK = re.compile(r"\r?\n[ \t]*")


@dataclass(frozen=True)
class Templates:
    """The templates of one site: its override folder (None: the package's templates only) and the files
    that folder held when the site's build started."""

    overrides: Path | None = None
    overridden: tuple[str, ...] = ()

    @classmethod
    def of(cls, custom_dir: str | Path | None) -> Templates:
        """A site's, whose theme ``custom_dir`` may hold ``pytorch-notes/``. Made by every build: a file added
        to or removed from that folder (``make serve``) takes a new environment; an edited one is reloaded by
        Jinja (``auto_reload``)."""
        folder = Path(custom_dir) / OVERRIDES if custom_dir else None
        found = folder.rglob("*.html") if folder is not None and folder.is_dir() else ()
        return cls(folder, tuple(sorted(p.relative_to(folder).as_posix() for p in found)))

    def search_path(self) -> list[Path]:
        """The folders templates are looked for in, first first."""
        return ([self.overrides] if self.overrides is not None else []) + [TEMPLATES]

    def render(self, name: str, **values) -> str:
        """The template ``name`` (e.g. ``"example/output.html"``) rendered with ``values``, as a ``str``."""
        return str(environment(self.overrides, self.overridden).get_template(name).render(**values))


PACKAGE = Templates()


@cache
def environment(overrides: Path | None, overridden: tuple[str, ...] = ()):
    """The Jinja environment of one override folder holding the templates ``overridden``."""
    import jinja2  # noqa: PLC0415 - see the module docstring
    from jinja2.ext import Extension  # noqa: PLC0415
    from jinja2.lexer import Token  # noqa: PLC0415
    from markupsafe import Markup  # noqa: PLC0415

    class _OneLine(Extension):
        """Drop line breaks and the indentation after them from a template's own text (not from values)."""

        def filter_stream(self, stream):
            for token in stream:
                yield Token(token.lineno, "data", _BREAK.sub("", token.value)) if token.type == "data" else token

    @jinja2.pass_eval_context
    def finalize(ctx, value):
        if not ctx.autoescape or hasattr(value, "__html__"):
            return value
        return Markup(html.escape(str(value)))

    @jinja2.pass_eval_context
    def oneline(ctx, value) -> str:
        text = str(value) if hasattr(value, "__html__") or not ctx.autoescape else html.escape(str(value))
        return Markup(one_html_line(text)) if ctx.autoescape else one_html_line(text)

    @jinja2.pass_eval_context
    def searched_lines(ctx, value) -> str:
        return Markup(one_html_line(searched_output(str(value))))

    folders = [str(p) for p in Templates(overrides).search_path()]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folders), autoescape=True, finalize=finalize,
                             extensions=[_OneLine], undefined=jinja2.StrictUndefined, auto_reload=True)
    env.filters["oneline"] = oneline
    env.filters["searched_lines"] = searched_lines
    return env


# An error or warning message in an output ("RuntimeError: ...", "x.py:3: UserWarning: ..."): what a reader
# pastes into the search box. The rest of what an example prints is not searched (issue 42, item 9: an
# example printing other chapters' words took their queries); of messages, the first few short ones only.
_MESSAGE = re.compile(r"\b[A-Z]\w*(?:Error|Warning|Exception)\b:")
SEARCHED_MESSAGES = 3  # per output
SEARCHED_LINE_CHARS = 300


def searched_output(text: str) -> str:
    """``text`` (an output, plain text) escaped as HTML, with every line except its first
    ``SEARCHED_MESSAGES`` error or warning messages of at most ``SEARCHED_LINE_CHARS`` characters wrapped in
    ``<span data-search-exclude="true">``: Material's search skips such an element (and strips the attribute
    from the page after indexing), so an output adds its messages to the search index and nothing else.
    Runs of excluded lines share one span. Line breaks are kept (``\n``)."""
    lines = text.split("\n")
    searched = [False] * len(lines)
    left = SEARCHED_MESSAGES
    for n, line in enumerate(lines):
        if left and len(line) <= SEARCHED_LINE_CHARS and _MESSAGE.search(line):
            searched[n], left = True, left - 1
    out, start = [], 0
    for n in range(len(lines) + 1):  # runs of lines searched alike, each run with the line breaks inside it
        if n == len(lines) or (n > start and searched[n] != searched[start]):
            run = html.escape("\n".join(lines[start:n]) + ("\n" if n < len(lines) else ""))
            out.append(run if searched[start] or not run else f'<span data-search-exclude="true">{run}</span>')
            start = n
    return "".join(out)


def trusted(markup: str):
    """``markup`` marked as HTML that the templates print as it is: never a text of an example or a record
    unless ``escape.sanitize_html`` made it."""
    from markupsafe import Markup  # noqa: PLC0415

    return Markup(markup)
